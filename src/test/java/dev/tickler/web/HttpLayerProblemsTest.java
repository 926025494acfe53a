package dev.tickler.web;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.reminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;

import dev.tickler.testing.Api;
import dev.tickler.testing.RawHttp;
import dev.tickler.testing.RawHttp.Departure;

/** The HTTP layer's own refusals on /v1 are problem documents too, and ids in paths are plain digits. */
@QuarkusTest
class HttpLayerProblemsTest {

    private static final String AUTHORIZATION = "Authorization: Bearer " + Api.API_KEY + "\r\n";

    @Test
    void bodyOverTheServersCeilingIsAProblem() {
        String answer = rawPost("/v1/reminders", "x".repeat(300 * 1024));

        assertProblem(answer, 413, "urn:tickler:problem:payload-too-large");
    }

    @Test
    void bodyOverTheApiLimitIsAProblem() {
        String answer = rawPost("/v1/reminders", "x".repeat(65 * 1024));

        assertProblem(answer, 413, "urn:tickler:problem:payload-too-large");
    }

    @Test
    void chunkedBodyOverTheApiLimitIsAProblem() {
        String answer = RawHttp.postChunked("/v1/reminders", 300 * 1024, AUTHORIZATION.strip());

        assertProblem(answer, 413, "urn:tickler:problem:payload-too-large");
    }

    @Test
    void aBodyAnnouncedOverTheLimitIsRefusedBeforeItIsSent() {
        // curl sends Expect: 100-continue for large bodies and waits a second for the go-ahead before sending anyway
        long started = System.nanoTime();
        String answer = expectingContinue("/v1/reminders", 2 * 1024 * 1024);
        Duration waited = Duration.ofNanos(System.nanoTime() - started);

        assertProblem(answer, 413, "urn:tickler:problem:payload-too-large");
        assertThat(answer.toLowerCase()).contains("connection: close");
        assertThat(waited).as("the answer came without the body").isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aBodyAnnouncedWithinTheLimitGetsTheGoAhead() {
        String answer = expectingContinue("/v1/reminders", 1024);

        assertThat(answer).startsWith("HTTP/1.1 100 Continue");
    }

    @Test
    void methodNotAllowedNamesTheMethodsThePathTakes() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofHours(1))));

        api().put("/v1/reminders/" + id).then().statusCode(405)
                .contentType("application/problem+json")
                .header("Allow", "DELETE, GET, HEAD, PATCH");
        api().get("/v1/reminders/batch").then().statusCode(405).header("Allow", "POST");
        api().delete("/v1/reminders").then().statusCode(405).header("Allow", "GET, HEAD, POST");
        api().get("/v1/sweep").then().statusCode(405).header("Allow", "POST");
        api().body("{}").put("/v1/admin/overview").then().statusCode(405).header("Allow", "GET, HEAD");
    }

    @Test
    void uriTooLongIsAProblem() {
        String request = "GET /v1/reminders?user_id=" + "u".repeat(10_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + AUTHORIZATION + "\r\n";

        String answer = RawHttp.exchange(request.getBytes(StandardCharsets.US_ASCII), Departure.READ_ANSWER);

        assertProblem(answer, 414, "urn:tickler:problem:uri-too-long");
    }

    @Test
    void headersTooLargeAreAProblem() {
        String request = "GET /v1/reminders?user_id=u HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTHORIZATION
                + "X-Padding: " + "p".repeat(40_000) + "\r\n\r\n";

        String answer = RawHttp.exchange(request.getBytes(StandardCharsets.US_ASCII), Departure.READ_ANSWER);

        assertProblem(answer, 431, "urn:tickler:problem:headers-too-large");
    }

    @ParameterizedTest
    @ValueSource(strings = { "+1", "00001", "0", "-1", "\u0661", "\uff11", "1.0", "1e3", "99999999999999999999" })
    void idThatIsNotPlainDigitsNamesNoReminder(String id) {
        api().get("/v1/reminders/" + id).then().statusCode(404)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:not-found"));
    }

    @Test
    void plainDigitsStillFindTheReminder() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofHours(1))));

        api().get("/v1/reminders/" + id).then().statusCode(200).body("id", equalTo((int) id));
        api().post("/v1/reminders/0" + id + "/redrive").then().statusCode(404);
    }

    @Test
    void aClientThatUpgradesToHttp2WithItsFirstPostIsServed() throws Exception {
        // the JDK's client asks for h2c on its first request over plain HTTP, body and all
        HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        String body = new JsonObject(Api.reminderAt(Instant.now().plus(Duration.ofHours(1)))).encode();

        HttpResponse<String> answer = http2.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + RawHttp.port() + "/v1/reminders"))
                .header("Authorization", "Bearer " + Api.API_KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
        assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_2);
    }

    /**
     * Sends only the head of a POST that announces {@code declaredBytes} and waits for the go-ahead, and answers what
     * came back before any of the body was sent ("" when nothing did within 5 s).
     */
    private static String expectingContinue(String path, int declaredBytes) {
        String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTHORIZATION
                + "Content-Type: application/json\r\nContent-Length: " + declaredBytes
                + "\r\nExpect: 100-continue\r\n\r\n";
        try (Socket socket = new Socket("127.0.0.1", RawHttp.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            byte[] buffer = new byte[64 * 1024];
            StringBuilder answer = new StringBuilder();
            try {
                int read;
                while ((read = socket.getInputStream().read(buffer)) > 0) {
                    answer.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
                    if (answer.toString().startsWith("HTTP/1.1 100") || RawHttp.isComplete(answer.toString())) {
                        break;
                    }
                }
            } catch (SocketTimeoutException | SocketException nothingMore) {
                // what came back so far is the answer
            }
            return answer.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String rawPost(String path, String body) {
        String request = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTHORIZATION
                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
        return RawHttp.exchange(request.getBytes(StandardCharsets.US_ASCII), Departure.READ_ANSWER);
    }

    static void assertProblem(String answer, int status, String type) {
        assertThat(RawHttp.status(answer)).as(answer).isEqualTo(status);
        assertThat(answer.toLowerCase()).contains("content-type: application/problem+json");
        JsonObject problem = new JsonObject(RawHttp.body(answer));
        assertThat(problem.getString("type")).isEqualTo(type);
        assertThat(problem.getInteger("status")).isEqualTo(status);
        assertThat(problem.fieldNames()).containsAll(List.of("type", "title", "status", "detail"));
    }
}
