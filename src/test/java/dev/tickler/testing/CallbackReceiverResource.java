package dev.tickler.testing;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import dev.tickler.security.Tenants;

/**
 * The product services' callback endpoints ({@link CallbackReceiver}) on a free loopback port, wired in as the
 * callback URLs of the tenant {@value Tenants#DEFAULT} (every unnamed key's) and, where {@link OperatorKeysProfile}
 * names more tenants, of {@value #CHECKOUT}; billing there has none. Tests reach it through {@link #receiver()}.
 */
public class CallbackReceiverResource implements QuarkusTestResourceLifecycleManager {

    public static final String CHECKOUT = "checkout";
    public static final String DEFAULT_SECRET = secret("default-tenant-callback-key-bytes");
    public static final String CHECKOUT_SECRET = secret("checkout-tenant-callback-key-bytes");

    private static volatile CallbackReceiver receiver;
    private boolean severalTenants;

    public static CallbackReceiver receiver() {
        return receiver;
    }

    @Override
    public void setContext(Context context) {
        severalTenants = OperatorKeysProfile.class.getName().equals(context.testProfile());
    }

    @Override
    public Map<String, String> start() {
        receiver = CallbackReceiver.start();
        Map<String, String> config = new HashMap<>();
        config.put("tickler.tenants.\"" + Tenants.DEFAULT + "\".callback-url", receiver.url(Tenants.DEFAULT));
        config.put("tickler.tenants.\"" + Tenants.DEFAULT + "\".callback-secret", DEFAULT_SECRET);
        if (severalTenants) {
            config.put("tickler.tenants.\"" + CHECKOUT + "\".callback-url", receiver.url(CHECKOUT));
            config.put("tickler.tenants.\"" + CHECKOUT + "\".callback-secret", CHECKOUT_SECRET);
        }
        return config;
    }

    @Override
    public void stop() {
        if (receiver != null) {
            receiver.close();
            receiver = null;
        }
    }

    private static String secret(String keyBytes) {
        return "whsec_" + Base64.getEncoder().encodeToString(keyBytes.getBytes(StandardCharsets.UTF_8));
    }
}
