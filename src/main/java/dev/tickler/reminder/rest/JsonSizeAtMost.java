package dev.tickler.reminder.rest;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

import io.vertx.core.json.Json;

/** A JSON object no larger than {@link #bytes()} once serialized (UTF-8, compact). */
@Target({ FIELD, METHOD, PARAMETER })
@Retention(RUNTIME)
@Constraint(validatedBy = JsonSizeAtMost.Validator.class)
@interface JsonSizeAtMost {

    int bytes();

    String message() default "must be at most {bytes} bytes when serialized";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<JsonSizeAtMost, Map<String, Object>> {

        private int bytes;

        @Override
        public void initialize(JsonSizeAtMost annotation) {
            bytes = annotation.bytes();
        }

        @Override
        public boolean isValid(Map<String, Object> value, ConstraintValidatorContext context) {
            return value == null || Json.encode(value).getBytes(StandardCharsets.UTF_8).length <= bytes;
        }
    }
}
