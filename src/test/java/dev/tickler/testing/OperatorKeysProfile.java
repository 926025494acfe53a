package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Product and operator keys, named and unnamed (docs/contract.md#keys-and-roles), of several tenants (docs/api.md,
 * "Tenants"): checkout has two keys, as in a rotation; billing, split and ops one each; the unnamed keys are default's.
 * Every secret contains "s3cr3t", for searching logs.
 */
public class OperatorKeysProfile implements QuarkusTestProfile {

    public static final String SECRET_MARK = "s3cr3t";

    public static final String CHECKOUT = "checkout-s3cr3t";
    public static final String BARE_PRODUCT = "bare-product-s3cr3t";
    /** The secret of the entry split=se=s3cr3t: split at the first '='. */
    public static final String SPLIT = "se=s3cr3t";
    /** checkout's second key, as a rotation adds it. */
    public static final String CHECKOUT_NEXT = "checkout-next-s3cr3t";
    public static final String BILLING = "billing-s3cr3t";
    public static final String OPS = "ops-s3cr3t";
    public static final String BARE_OPERATOR = "bare-operator-s3cr3t";

    @Override
    public Map<String, String> getConfigOverrides() {
        return OwnApplication.withoutApiDocument(Map.of(
                "tickler.api.keys", "checkout=" + CHECKOUT + "," + BARE_PRODUCT + ",split=" + SPLIT
                        + ",checkout/2027-01=" + CHECKOUT_NEXT + ",billing=" + BILLING,
                "tickler.api.operator-keys", "ops=" + OPS + "," + BARE_OPERATOR));
    }
}
