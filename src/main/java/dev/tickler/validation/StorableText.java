package dev.tickler.validation;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

/** Text Postgres can store as it was sent: no NUL character and no lone UTF-16 surrogate ({@link TextRules}). */
@Target({ FIELD, METHOD, PARAMETER, ANNOTATION_TYPE })
@Retention(RUNTIME)
@Constraint(validatedBy = StorableText.Validator.class)
public @interface StorableText {

    String message() default TextRules.NOT_STORABLE;

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<StorableText, String> {

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || TextRules.isStorable(value);
        }
    }
}
