package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Poll mode (tickler.delivery.mode=poll, every 0.2 s), and the sweep on its schedule every second: one application
 * for {@code PollModeTest} and {@code ScheduledSweepTest}, whose reminders never meet (the sweep's are days ahead,
 * the poll's due now), because every profile costs the suite a build and a start. The notifier's timeout is longer
 * than the suite's, so a send the stand-in holds until a test releases it is still that one send when it settles.
 */
public class PollingAndSweepProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return OwnApplication.withoutApiDocument(Map.of(
                "tickler.delivery.mode", "poll", "tickler.delivery.poll-interval", "PT0.2S",
                "tickler.sweep.enabled", "true", "tickler.sweep.every", "1s", "tickler.notify.timeout", "PT30S"));
    }
}
