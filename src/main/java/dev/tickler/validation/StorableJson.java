package dev.tickler.validation;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

import io.vertx.core.json.Json;

/**
 * A JSON object that jsonb stores as it was sent: at most {@link #bytes()} once serialized (UTF-8, compact), nested
 * at most {@link #MAX_DEPTH} levels, every key and string {@link TextRules storable}, every number finite (a number
 * too large for a double would otherwise be written as Infinity, which is not JSON).
 */
@Target({ FIELD, METHOD, PARAMETER })
@Retention(RUNTIME)
@Constraint(validatedBy = StorableJson.Validator.class)
public @interface StorableJson {

    int MAX_DEPTH = 32;

    int bytes();

    String message() default "must be a JSON object of at most {bytes} bytes when serialized";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<StorableJson, Map<String, Object>> {

        private int bytes;

        @Override
        public void initialize(StorableJson annotation) {
            bytes = annotation.bytes();
        }

        @Override
        public boolean isValid(Map<String, Object> value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            String problem = problemIn(value, "", 1);
            if (problem == null && Json.encode(value).getBytes(StandardCharsets.UTF_8).length > bytes) {
                problem = "must be at most " + bytes + " bytes when serialized";
            }
            if (problem == null) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(problem.replace("{", "\\{").replace("}", "\\}")
                    .replace("$", "\\$")).addConstraintViolation();
            return false;
        }

        /** The first thing jsonb could not store as sent, described with where it is; null when there is none. */
        private static String problemIn(Object value, String path, int depth) {
            if (depth > MAX_DEPTH) {
                return "must not nest deeper than " + MAX_DEPTH + " levels";
            }
            if (value instanceof Map<?, ?> object) {
                for (Map.Entry<?, ?> entry : object.entrySet()) {
                    String key = String.valueOf(entry.getKey());
                    if (!TextRules.isStorable(key)) {
                        return "keys " + TextRules.NOT_STORABLE + (path.isEmpty() ? "" : " (in " + path + ")");
                    }
                    String problem = problemIn(entry.getValue(), path.isEmpty() ? key : path + "." + key, depth + 1);
                    if (problem != null) {
                        return problem;
                    }
                }
            } else if (value instanceof List<?> array) {
                for (int i = 0; i < array.size(); i++) {
                    String problem = problemIn(array.get(i), path + "[" + i + "]", depth + 1);
                    if (problem != null) {
                        return problem;
                    }
                }
            } else if (value instanceof String text && !TextRules.isStorable(text)) {
                return "strings " + TextRules.NOT_STORABLE + " (at " + path + ")";
            } else if (value instanceof Double number && !Double.isFinite(number)
                    || value instanceof Float single && !Float.isFinite(single)) {
                return "numbers must be finite and within the range of a double (at " + path + ")";
            }
            return null;
        }
    }
}
