package dev.tickler.reminder.rest;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

import dev.tickler.problem.FieldError;
import dev.tickler.time.ReminderTiming;

/** fire_at, local_time, tz and expires_after follow {@link ReminderTiming}'s rules; each problem names its field. */
@Target(TYPE)
@Retention(RUNTIME)
@Constraint(validatedBy = ValidTiming.Validator.class)
@interface ValidTiming {

    /** Whether one of fire_at or local_time must be given. */
    boolean scheduleRequired();

    String message() default "timing is not valid";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<ValidTiming, TimingFields> {

        private boolean scheduleRequired;

        @Override
        public void initialize(ValidTiming annotation) {
            scheduleRequired = annotation.scheduleRequired();
        }

        @Override
        public boolean isValid(TimingFields fields, ConstraintValidatorContext context) {
            if (fields == null) {
                return true;
            }
            var problems = ReminderTiming.problems(fields.fireAt(), fields.localTime(), fields.tz(),
                    fields.expiresAfter(), scheduleRequired);
            context.disableDefaultConstraintViolation();
            for (FieldError problem : problems) {
                context.buildConstraintViolationWithTemplate(escape(problem.message()))
                        .addPropertyNode(problem.field())
                        .addConstraintViolation();
            }
            return problems.isEmpty();
        }

        /** Messages are templates; ours are plain text. */
        private static String escape(String message) {
            return message.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("$", "\\$");
        }
    }
}
