package dev.tickler.testing;

import static io.restassured.RestAssured.given;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads one sample from the Prometheus endpoint, as a scraper would. */
public final class Metrics {

    private Metrics() {
    }

    /** The whole Prometheus page from the management interface. */
    public static String page() {
        return given().port(InfraiEmulatorResource.managementPort()).get("/q/metrics").then().statusCode(200)
                .extract().asString();
    }

    /** The value of a sample (the first, when labelled), 0 when it is not exported yet. */
    public static double value(String name) {
        return value(name, "");
    }

    /** The value of the first sample whose labels include {@code label} (as {@code key="value"}), 0 when none yet. */
    public static double value(String name, String label) {
        String labels = label.isEmpty() ? "(?:\\{[^}]*\\})?" : "\\{[^}]*" + Pattern.quote(label) + "[^}]*\\}";
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + labels + " ([0-9.eE+-]+)$").matcher(page());
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }
}
