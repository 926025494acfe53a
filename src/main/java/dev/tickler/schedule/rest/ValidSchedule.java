package dev.tickler.schedule.rest;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

import dev.tickler.problem.FieldError;

/** A schedule body's timing and policy fields follow {@link ScheduleFields#problems}; each problem names its field. */
@Target(TYPE)
@Retention(RUNTIME)
@Constraint(validatedBy = ValidSchedule.Validator.class)
@interface ValidSchedule {

    /** Whether tz, start and rrule must be given (creation). */
    boolean required();

    String message() default "schedule is not valid";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<ValidSchedule, ScheduleFields> {

        private boolean required;

        @Override
        public void initialize(ValidSchedule annotation) {
            required = annotation.required();
        }

        @Override
        public boolean isValid(ScheduleFields fields, ConstraintValidatorContext context) {
            if (fields == null) {
                return true;
            }
            var problems = fields.problems(required);
            context.disableDefaultConstraintViolation();
            for (FieldError problem : problems) {
                var violation = context.buildConstraintViolationWithTemplate(escape(problem.message()));
                String[] path = problem.field().split("\\.");
                var node = violation.addPropertyNode(path[0]);
                for (int i = 1; i < path.length; i++) {
                    node = node.addPropertyNode(path[i]);
                }
                node.addConstraintViolation();
            }
            return problems.isEmpty();
        }

        /** Messages are templates; ours are plain text. */
        private static String escape(String message) {
            return message.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("$", "\\$");
        }
    }
}
