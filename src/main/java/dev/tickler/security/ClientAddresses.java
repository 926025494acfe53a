package dev.tickler.security;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.netty.util.NetUtil;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

import dev.tickler.config.TicklerConfig;

/**
 * Which client a request comes from, as the wrong-key limit counts it (docs/operating.md, "Wrong keys"). The peer of
 * the connection, unless that peer is one of {@code tickler.api.trusted-proxies}: then the nearest address of
 * X-Forwarded-For that is not a trusted proxy, read from the right, where each proxy appends the peer it saw, so that
 * what a client writes into the header itself never counts while a proxy added its real address after it. Addresses
 * are compared as literals and never looked up. An IPv6 client counts by its /64, the block one subscriber holds.
 */
@Startup
@Singleton
public class ClientAddresses {

    static final String TRUSTED_PROXIES = "tickler.api.trusted-proxies";
    private static final String FORWARDED_FOR = "X-Forwarded-For";
    private static final String UNKNOWN = "unknown";

    /** A network: the address's first {@code bits} bits. */
    record Range(byte[] network, int bits) {

        static Range parse(String text) {
            String[] parts = text.strip().split("/", 2);
            byte[] address = literal(parts[0]);
            if (address == null) {
                return null;
            }
            int bits = address.length * 8;
            if (parts.length == 2) {
                try {
                    bits = Integer.parseInt(parts[1]);
                } catch (NumberFormatException notANumber) {
                    return null;
                }
                if (bits < 0 || bits > address.length * 8) {
                    return null;
                }
            }
            return new Range(address, bits);
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final List<Range> trustedProxies;

    @Inject
    public ClientAddresses(TicklerConfig config) {
        this(config.api().trustedProxies().orElse(List.of()));
    }

    ClientAddresses(List<String> trustedProxies) {
        List<Range> ranges = new ArrayList<>();
        for (int i = 0; i < trustedProxies.size(); i++) {
            if (trustedProxies.get(i).isBlank()) {
                continue;
            }
            Range range = Range.parse(trustedProxies.get(i));
            if (range == null) {
                throw new ConfigurationException("entry " + (i + 1) + " of " + TRUSTED_PROXIES + " is not an IP"
                        + " address or a CIDR range such as 10.0.0.0/8 (host names are not looked up)",
                        Set.of(TRUSTED_PROXIES));
            }
            ranges.add(range);
        }
        this.trustedProxies = List.copyOf(ranges);
    }

    /** The client the request comes from, as a name for counting: an IPv4 address, or an IPv6 /64. */
    public String of(HttpServerRequest request) {
        SocketAddress peer = request.remoteAddress();
        return of(peer == null ? null : peer.hostAddress(), request.headers().getAll(FORWARDED_FOR));
    }

    String of(String peerAddress, List<String> forwardedFor) {
        byte[] peer = peerAddress == null ? null : literal(peerAddress);
        if (peer == null) {
            return UNKNOWN;
        }
        if (!trusted(peer)) {
            return name(peer);
        }
        List<String> hops = new ArrayList<>();
        forwardedFor.forEach(header -> Arrays.stream(header.split(",")).map(String::strip)
                .filter(hop -> !hop.isEmpty()).forEach(hops::add));
        byte[] client = peer;
        for (int i = hops.size() - 1; i >= 0; i--) {
            byte[] hop = literal(withoutPort(hops.get(i)));
            if (hop == null) {
                // not an address (RFC 7239's "unknown", or anything): nothing further left can be believed
                break;
            }
            client = hop;
            if (!trusted(hop)) {
                break;
            }
        }
        return name(client);
    }

    private boolean trusted(byte[] address) {
        return trustedProxies.stream().anyMatch(range -> range.contains(address));
    }

    /** An IP literal's bytes (an IPv4 address mapped into IPv6 as the IPv4 address); null for anything else. */
    static byte[] literal(String text) {
        String address = text.strip();
        if (address.startsWith("[") && address.endsWith("]")) {
            address = address.substring(1, address.length() - 1);
        }
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
        if (bytes != null && bytes.length == 16 && isIpv4Mapped(bytes)) {
            return Arrays.copyOfRange(bytes, 12, 16);
        }
        return bytes;
    }

    private static boolean isIpv4Mapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }

    /** {@code 192.0.2.7:4711} and {@code [2001:db8::7]:4711} as proxies may write them, without the port. */
    private static String withoutPort(String hop) {
        if (hop.startsWith("[")) {
            int end = hop.indexOf(']');
            return end < 0 ? hop : hop.substring(0, end + 1);
        }
        int colon = hop.indexOf(':');
        return colon >= 0 && colon == hop.lastIndexOf(':') ? hop.substring(0, colon) : hop;
    }

    private static String name(byte[] address) {
        if (address.length == 4) {
            return (address[0] & 0xff) + "." + (address[1] & 0xff) + "." + (address[2] & 0xff) + "."
                    + (address[3] & 0xff);
        }
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < 8; i += 2) {
            prefix.append(Integer.toHexString(((address[i] & 0xff) << 8) | (address[i + 1] & 0xff))).append(':');
        }
        return prefix.append(":/64").toString().toLowerCase(Locale.ROOT);
    }
}
