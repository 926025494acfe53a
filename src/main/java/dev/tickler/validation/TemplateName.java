package dev.tickler.validation;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A template name: 1 to 128 characters of A-Z, a-z, 0-9, '_', '.' and '-'. Required; each broken rule is its own field error. One
 * place for a rule that reminders, schedules and filters share.
 */
@NotNull(message = "is required")
@TemplateName.IfGiven
@Target({ FIELD, METHOD, PARAMETER })
@Retention(RUNTIME)
@Constraint(validatedBy = {})
public @interface TemplateName {

    /** The same rule for a template that may be left out (a filter's). */
    @Size(min = 1, max = 128, message = "must be 1 to 128 characters")
    @Pattern(regexp = "[A-Za-z0-9_.-]*", message = "may only hold A-Z, a-z, 0-9, '_', '.' and '-'")
    @Target({ FIELD, METHOD, PARAMETER, ANNOTATION_TYPE })
    @Retention(RUNTIME)
    @Constraint(validatedBy = {})
    @interface IfGiven {

        String message() default "";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};
    }

    String message() default "";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
