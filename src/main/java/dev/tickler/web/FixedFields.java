package dev.tickler.web;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * On a change's body (a PATCH): the fields of the creating body {@link #of} that this one leaves out are fixed once
 * created. Such a field is answered "cannot be changed", with the {@link #advice}, instead of "unknown field".
 */
@Target(TYPE)
@Retention(RUNTIME)
public @interface FixedFields {

    /** The body that creates what this one changes. */
    Class<? extends JsonBody> of();

    /** What to do instead, e.g. "cancel this reminder and register a new one". */
    String advice();
}
