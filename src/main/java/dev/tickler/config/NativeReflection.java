package dev.tickler.config;

import io.quarkus.runtime.annotations.RegisterForReflection;

import dev.tickler.publish.ReminderMessage;
import dev.tickler.problem.FieldError;
import dev.tickler.problem.Problem;

/**
 * Types Jackson reaches by reflection that no REST signature names, so a native image would otherwise lose their
 * accessors: the queue message body (published as an Object) and the problem documents (written by the mapper).
 */
@RegisterForReflection(targets = { ReminderMessage.class, Problem.class, FieldError.class })
public final class NativeReflection {

    private NativeReflection() {
    }
}
