package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Product and operator keys, named and unnamed (docs/contract.md#keys-and-roles); every secret contains "s3cr3t", for
 * searching logs.
 */
public class OperatorKeysProfile implements QuarkusTestProfile {

    public static final String SECRET_MARK = "s3cr3t";

    public static final String CHECKOUT = "checkout-s3cr3t";
    public static final String BARE_PRODUCT = "bare-product-s3cr3t";
    /** The secret of the entry split=se=s3cr3t: split at the first '='. */
    public static final String SPLIT = "se=s3cr3t";
    public static final String OPS = "ops-s3cr3t";
    public static final String BARE_OPERATOR = "bare-operator-s3cr3t";

    @Override
    public Map<String, String> getConfigOverrides() {
        return OwnApplication.withoutApiDocument(Map.of(
                "tickler.api.keys", "checkout=" + CHECKOUT + "," + BARE_PRODUCT + ",split=" + SPLIT,
                "tickler.api.operator-keys", "ops=" + OPS + "," + BARE_OPERATOR));
    }
}
