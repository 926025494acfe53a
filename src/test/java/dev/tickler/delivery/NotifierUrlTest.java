package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which tickler.notify.url values an instance starts with; the refusal itself is NotifierUrlRequiredTest's. */
class NotifierUrlTest {

    @Test
    void anAbsoluteHttpOrHttpsUrlIsTaken() {
        assertThat(NotifierClient.providerUrl(Optional.of("https://notify.example.com/v1/send")))
                .isEqualTo(URI.create("https://notify.example.com/v1/send"));
        assertThat(NotifierClient.providerUrl(Optional.of(" http://127.0.0.1:8089/notify ")))
                .isEqualTo(URI.create("http://127.0.0.1:8089/notify"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "   " })
    void aMissingOrBlankUrlIsRefusedNamingTheKey(String blank) {
        assertThatThrownBy(() -> NotifierClient.providerUrl(Optional.of(blank)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tickler.notify.url (NOTIFY_URL) is not set");
        assertThatThrownBy(() -> NotifierClient.providerUrl(Optional.empty()))
                .hasMessageContaining("tickler.notify.url (NOTIFY_URL) is not set");
    }

    @ParameterizedTest
    @ValueSource(strings = { "notify.example.com/send", "ftp://notify.example.com/send", "http://", "http://exa mple.com",
            "/notify" })
    void anythingButAnAbsoluteHttpUrlIsRefusedNamingTheKey(String url) {
        assertThatThrownBy(() -> NotifierClient.providerUrl(Optional.of(url)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("tickler.notify.url (NOTIFY_URL) must be an absolute http or https URL, not " + url);
    }
}
