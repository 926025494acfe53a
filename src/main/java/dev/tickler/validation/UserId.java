package dev.tickler.validation;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * A user id as the API takes it: 1 to 128 characters Postgres can store as sent. Required; each broken rule is its own field error. One
 * place for a rule that reminders and schedules share.
 */
@NotNull(message = "is required")
@Size(min = 1, max = 128, message = "must be 1 to 128 characters")
@StorableText
@Target({ FIELD, METHOD, PARAMETER })
@Retention(RUNTIME)
@Constraint(validatedBy = {})
public @interface UserId {

    String message() default "";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
