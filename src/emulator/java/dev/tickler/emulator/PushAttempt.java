package dev.tickler.emulator;

import java.util.List;

/** A delivery to post to each of the queue's subscriptions. */
record PushAttempt(Delivery delivery, List<Subscription> targets) {
}
