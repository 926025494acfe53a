package dev.tickler.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Which client a request is counted under ({@link WrongKeyLimitTest} has it over real connections): the peer, unless
 * it is a trusted proxy; then the nearest forwarded address that is not one.
 */
class ClientAddressesTest {

    private final ClientAddresses direct = new ClientAddresses(List.of());
    private final ClientAddresses behindProxies = new ClientAddresses(List.of("127.0.0.1", "10.0.0.0/8",
            "fd00::/8"));

    @Test
    void withoutTrustedProxiesThePeerIsTheClientWhateverTheHeaderSays() {
        assertThat(direct.of("192.0.2.7", List.of("198.51.100.1"))).isEqualTo("192.0.2.7");
    }

    @Test
    void behindTrustedProxiesTheNearestUntrustedForwardedAddressIsTheClient() {
        // a client-written entry, the client as the edge proxy saw it, then two proxies of ours
        assertThat(behindProxies.of("127.0.0.1", List.of("203.0.113.1, 198.51.100.7, 10.1.2.3", "10.4.5.6")))
                .isEqualTo("198.51.100.7");
        assertThat(behindProxies.of("10.9.9.9", List.of("198.51.100.7:4711"))).isEqualTo("198.51.100.7");
        assertThat(behindProxies.of("127.0.0.1", List.of())).isEqualTo("127.0.0.1");
    }

    @Test
    void aClientInsideTheTrustedNetworksIsTheLeftmostAddress() {
        assertThat(behindProxies.of("127.0.0.1", List.of("10.20.30.40, 10.1.2.3"))).isEqualTo("10.20.30.40");
    }

    @Test
    void somethingThatIsNoAddressEndsTheWalkAtTheLastProxy() {
        assertThat(behindProxies.of("127.0.0.1", List.of("198.51.100.7, unknown, 10.1.2.3"))).isEqualTo("10.1.2.3");
        assertThat(behindProxies.of("127.0.0.1", List.of("evil.example.com"))).isEqualTo("127.0.0.1");
    }

    @Test
    void anIpv6ClientCountsByItsSlash64AndMappedIpv4AsIpv4() {
        assertThat(direct.of("2001:db8:1:2:aaaa::1", List.of())).isEqualTo("2001:db8:1:2::/64");
        assertThat(direct.of("2001:db8:1:2:bbbb::9", List.of())).isEqualTo("2001:db8:1:2::/64");
        assertThat(direct.of("2001:db8:1:3::1", List.of())).isEqualTo("2001:db8:1:3::/64");
        assertThat(direct.of("::ffff:192.0.2.7", List.of())).isEqualTo("192.0.2.7");
        assertThat(behindProxies.of("fd00::1", List.of("[2001:db8:1:2::5]:443"))).isEqualTo("2001:db8:1:2::/64");
    }

    @Test
    void aTrustedProxyThatIsNoAddressOrRangeStopsTheStart() {
        for (String entry : List.of("proxy.example.com", "10.0.0.0/33", "10.0.0.0/x")) {
            assertThatThrownBy(() -> new ClientAddresses(List.of("127.0.0.1", entry)))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("entry 2 of tickler.api.trusted-proxies is not an IP address or a CIDR range");
        }
    }
}
