package dev.tickler.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;

import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.OperatorKeysProfile;

/**
 * Once operator keys are configured, only they open the console (docs/contract.md#keys-and-roles, #operator-console).
 */
@QuarkusTest
@TestProfile(OperatorKeysProfile.class)
class ConsoleOperatorKeysTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    void aProductKeyIsRefusedWithAClearMessage() {
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            HtmlPage refused = browser.signIn(OperatorKeysProfile.CHECKOUT);

            assertThat(refused.getWebResponse().getStatusCode()).isEqualTo(403);
            assertThat(refused.getHtmlElementById("message").asNormalizedText())
                    .isEqualTo("That is a product key. The console needs an operator key (tickler.api.operator-keys).");
            assertThat(browser.client().getCookieManager().getCookie(ConsoleSessions.SESSION_COOKIE)).isNull();
        }
    }

    @Test
    void anOperatorKeySignsInUnderItsName() {
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            HtmlPage overview = browser.signIn(OperatorKeysProfile.OPS);

            assertThat(overview.getTitleText()).startsWith("Overview");
            assertThat(overview.getHtmlElementById("operator").asNormalizedText()).isEqualTo("ops");
        }
    }
}
