package dev.tickler.reminder;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The same tests against the packaged application; with -Paot they also train its AOT cache. */
@QuarkusIntegrationTest
class RegistrationIT extends RegistrationTest {
}
