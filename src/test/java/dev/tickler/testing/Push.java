package dev.tickler.testing;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/** Pushes a message to the receiver as the queue's push subscription would. */
public final class Push {

    private Push() {
    }

    public static ValidatableResponse push(String token, String body) {
        return given().contentType(ContentType.JSON).body(body).post("/q/" + token + "/reminders").then();
    }

    public static ValidatableResponse push(String body) {
        return push(InfraiEmulatorResource.PUSH_TOKEN, body);
    }

    public static String message(long reminderId, int version) {
        return "{\"reminder_id\": " + reminderId + ", \"version\": " + version + "}";
    }
}
