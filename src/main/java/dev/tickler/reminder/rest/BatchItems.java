package dev.tickler.reminder.rest;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tickler.problem.FieldError;
import dev.tickler.problem.Problem;
import dev.tickler.problem.ProblemException;
import dev.tickler.problem.ProblemMappers;
import dev.tickler.ledger.NewReminder;
import dev.tickler.web.JsonBodies;

/**
 * Reads the body of POST /v1/reminders/batch (docs/contract.md#batch-registration) item by item: each is read and
 * validated exactly as a single registration's body is, so one bad item is that item's 400 and never the batch's. Only
 * a body that is not {"items": [...]} with at most {@link #MAX_ITEMS} items is refused as a whole.
 */
@ApplicationScoped
class BatchItems {

    static final int MAX_ITEMS = 1000;

    /** One item as read: a registration to make, or the problem that refuses it. */
    record Item(NewReminder reminder, Problem problem) {
    }

    private final JsonBodies bodies;
    private final Validator validator;

    BatchItems(JsonBodies bodies, Validator validator) {
        this.bodies = bodies;
        this.validator = validator;
    }

    List<Item> read(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ProblemException.invalid("body", "must be a JSON object with an array of reminder bodies as items");
        }
        List<FieldError> errors = new ArrayList<>();
        for (Iterator<String> fields = body.fieldNames(); fields.hasNext();) {
            String field = fields.next();
            if (!field.equals("items")) {
                errors.add(new FieldError(field, "unknown field"));
            }
        }
        JsonNode items = body.get("items");
        if (items == null || !items.isArray()) {
            errors.add(new FieldError("items", "is required: an array of reminder bodies"));
        } else if (items.size() > MAX_ITEMS) {
            errors.add(new FieldError("items", "must hold at most " + MAX_ITEMS + " reminders; it holds "
                    + items.size()));
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid(errors);
        }
        List<Item> read = new ArrayList<>(items.size());
        for (JsonNode item : items) {
            read.add(readOne(item));
        }
        return read;
    }

    private Item readOne(JsonNode item) {
        if (!item.isObject()) {
            return refused(Problem.invalid(List.of(new FieldError("body", "must be a JSON object"))));
        }
        CreateReminderRequest request;
        try {
            request = bodies.bind(item, CreateReminderRequest.class);
        } catch (ProblemException e) {
            return refused(e.problem());
        }
        Set<ConstraintViolation<CreateReminderRequest>> violations = validator.validate(request);
        if (!violations.isEmpty()) {
            return refused(ProblemMappers.problemFor(violations));
        }
        return new Item(request.toNewReminder(), null);
    }

    private static Item refused(Problem problem) {
        return new Item(null, problem);
    }
}
