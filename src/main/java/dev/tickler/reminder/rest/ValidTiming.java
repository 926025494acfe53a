package dev.tickler.reminder.rest;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.Dependent;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

import dev.tickler.problem.FieldError;
import dev.tickler.time.PastLimit;
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

    /** A bean of its own for each use (the annotation's settings differ), reading the clock through PastLimit. */
    @Dependent
    class Validator implements ConstraintValidator<ValidTiming, TimingFields> {

        private final PastLimit pastLimit;
        private boolean scheduleRequired;

        Validator(PastLimit pastLimit) {
            this.pastLimit = pastLimit;
        }

        @Override
        public void initialize(ValidTiming annotation) {
            scheduleRequired = annotation.scheduleRequired();
        }

        @Override
        public boolean isValid(TimingFields fields, ConstraintValidatorContext context) {
            if (fields == null) {
                return true;
            }
            List<FieldError> problems = new ArrayList<>(ReminderTiming.problems(fields.fireAt(), fields.localTime(),
                    fields.tz(), fields.expiresAfter(), scheduleRequired));
            tooFarBack(fields, problems).ifPresent(problems::add);
            context.disableDefaultConstraintViolation();
            for (FieldError problem : problems) {
                context.buildConstraintViolationWithTemplate(escape(problem.message()))
                        .addPropertyNode(problem.field())
                        .addConstraintViolation();
            }
            return problems.isEmpty();
        }

        /**
         * A fire_at, or a local_time in a given or default zone, that passed ReminderTiming's rules and lies further
         * back than tickler.api.max-past; a PATCH's local_time without tz is read in the stored zone, which the
         * service checks.
         */
        private Optional<FieldError> tooFarBack(TimingFields fields, List<FieldError> problems) {
            String field = fields.fireAt() != null ? "fire_at" : "local_time";
            boolean readable = fields.fireAt() != null ? fields.localTime() == null
                    : fields.localTime() != null && (fields.tz() != null || scheduleRequired);
            if (!readable || problems.stream().anyMatch(problem -> problem.field().equals(field)
                    || problem.field().equals("tz"))) {
                return Optional.empty();
            }
            Instant fireAt = ReminderTiming.fireAt(fields.fireAt(), fields.localTime(),
                    fields.tz() != null ? ZoneId.of(fields.tz()) : ReminderTiming.DEFAULT_ZONE);
            return pastLimit.problem(fireAt).map(problem -> new FieldError(field, problem));
        }

        /** Messages are templates; ours are plain text. */
        private static String escape(String message) {
            return message.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("$", "\\$");
        }
    }
}
