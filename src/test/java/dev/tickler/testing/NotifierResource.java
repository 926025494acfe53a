package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** The notifier stand-in on a free loopback port, wired in as tickler.notify.url; tests reach it through {@link #notifier()}. */
public class NotifierResource implements QuarkusTestResourceLifecycleManager {

    private static volatile NotifierStandIn notifier;

    public static NotifierStandIn notifier() {
        return notifier;
    }

    @Override
    public Map<String, String> start() {
        notifier = NotifierStandIn.start();
        return Map.of("tickler.notify.url", notifier.url());
    }

    @Override
    public void stop() {
        if (notifier != null) {
            notifier.close();
            notifier = null;
        }
    }
}
