package dev.tickler.web;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The same tests against the packaged application; with -Paot they also train its AOT cache. */
@QuarkusIntegrationTest
class HttpLayerProblemsIT extends HttpLayerProblemsTest {
}
