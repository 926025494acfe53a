package dev.tickler.callback.rest;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.callback.CallbackPosition;
import dev.tickler.problem.FieldError;
import dev.tickler.web.JsonBody;

/** The body of POST /v1/callbacks/redeliver: {"after": cursor} or {"ids": [...]}, exactly one of the two. */
@Schema(examples = """
        {"ids": [8801, 8802]}""")
public record RedeliverRequest(
        @Schema(description = "Every event after this cursor from GET /v1/callbacks, up to 1,000 a call") String after,
        @Schema(description = "These events (1 to 1,000 ids)") List<Long> ids) implements JsonBody {

    static final int MAX_IDS = 1_000;

    @Override
    public List<FieldError> problems() {
        List<FieldError> problems = new ArrayList<>();
        if ((after == null) == (ids == null)) {
            problems.add(new FieldError(after == null ? "" : "after", "give exactly one of after (a cursor from"
                    + " GET /v1/callbacks) and ids (1 to " + MAX_IDS + " event ids)"));
            return problems;
        }
        if (after != null && CallbackPosition.fromCursor(after).isEmpty()) {
            problems.add(new FieldError("after", "must be a cursor from a previous page's next"));
        }
        if (ids != null) {
            if (ids.isEmpty() || ids.size() > MAX_IDS) {
                problems.add(new FieldError("ids", "must hold 1 to " + MAX_IDS + " event ids"));
            }
            for (int i = 0; i < ids.size(); i++) {
                if (ids.get(i) == null || ids.get(i) < 1) {
                    problems.add(new FieldError("ids[" + i + "]", "must be an event id, a whole number from 1"));
                }
            }
        }
        return problems;
    }
}
