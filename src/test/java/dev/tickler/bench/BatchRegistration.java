package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.restassured.RestAssured;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Registers a benchmark's reminders through the batch API, as a product service's campaign would. */
final class BatchRegistration {

    private BatchRegistration() {
    }

    /** Posts one batch with the benchmark key and answers how many of its items were created. */
    static int post(HttpClient http, String body) throws Exception {
        return post(http, ProductionLikeProfile.API_KEY, body);
    }

    /** Posts one batch with this key (so for its tenant) and answers how many of its items were created. */
    static int post(HttpClient http, String key, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + RestAssured.port + "/v1/reminders/batch"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonArray items = new JsonObject(response.body()).getJsonArray("items");
        int created = 0;
        for (int i = 0; i < items.size(); i++) {
            created += items.getJsonObject(i).getInteger("status") == 201 ? 1 : 0;
        }
        return created;
    }
}
