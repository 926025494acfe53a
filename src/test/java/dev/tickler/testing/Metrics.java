package dev.tickler.testing;

import static io.restassured.RestAssured.given;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads one sample from the Prometheus endpoint, as a scraper would. */
public final class Metrics {

    private Metrics() {
    }

    /** The value of an unlabelled sample, 0 when it is not exported yet. */
    public static double value(String name) {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*\\})? ([0-9.eE+-]+)$").matcher(text);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }
}
