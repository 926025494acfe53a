package dev.tickler.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.ConfigurationException;

import dev.tickler.security.ApiKeys.ApiKey;

/**
 * Keys and roles (docs/contract.md#keys-and-roles): how key entries are read, named and given roles; what is refused at
 * start.
 */
class ApiKeysTest {

    private static final Set<String> OPERATOR = Set.of(Roles.PRODUCT, Roles.OPERATOR, Roles.EVERY_TENANT);
    /** A product key that is an operator only because no operator key is configured. */
    private static final Set<String> PROMOTED = Set.of(Roles.PRODUCT, Roles.OPERATOR);
    private static final Set<String> PRODUCT = Set.of(Roles.PRODUCT);

    @Test
    void namedEntryIsKnownByItsSecretUnderItsName() {
        ApiKeys keys = new ApiKeys(List.of("checkout=4f9a"), List.of("ops=77c1"));

        assertThat(keys.find("4f9a")).contains(new ApiKey("checkout", PRODUCT));
        assertThat(keys.find("77c1")).contains(new ApiKey("ops", OPERATOR));
        assertThat(keys.find("checkout")).isEmpty();
        assertThat(keys.find("checkout=4f9a")).isEmpty();
    }

    @Test
    void unnamedEntriesAreNumberedInOrderPerList() {
        ApiKeys keys = new ApiKeys(List.of("first", "billing=second", "third"), List.of("fourth", "fifth"));

        assertThat(keys.find("first").map(ApiKey::name)).contains("key-1");
        assertThat(keys.find("second").map(ApiKey::name)).contains("billing");
        assertThat(keys.find("third").map(ApiKey::name)).contains("key-2");
        assertThat(keys.find("fourth").map(ApiKey::name)).contains("operator-1");
        assertThat(keys.find("fifth").map(ApiKey::name)).contains("operator-2");
    }

    @Test
    void withoutOperatorKeysEveryProductKeyIsAnOperator() {
        ApiKeys keys = new ApiKeys(List.of("checkout=4f9a", "bare"), List.of());

        assertThat(keys.find("4f9a").map(ApiKey::roles)).contains(PROMOTED);
        assertThat(keys.find("bare").map(ApiKey::roles)).contains(PROMOTED);
    }

    @Test
    void onceAnOperatorKeyExistsProductKeysAreProductOnly() {
        ApiKeys keys = new ApiKeys(List.of("checkout=4f9a"), List.of("ops-secret"));

        assertThat(keys.find("4f9a").map(ApiKey::roles)).contains(PRODUCT);
        assertThat(keys.find("ops-secret").map(ApiKey::roles)).contains(OPERATOR);
    }

    @Test
    void operatorKeysWithoutProductKeysServeBoth() {
        ApiKeys keys = new ApiKeys(List.of(), List.of("ops=77c1"));

        assertThat(keys.find("77c1").map(ApiKey::roles)).contains(OPERATOR);
    }

    @Test
    void secretIsSplitFromItsNameAtTheFirstEqualsSign() {
        ApiKeys keys = new ApiKeys(List.of("split=se=cret", "b64=c2VjcmV0LWtleQ=="), List.of());

        assertThat(keys.find("se=cret").map(ApiKey::name)).contains("split");
        assertThat(keys.find("c2VjcmV0LWtleQ==").map(ApiKey::name)).contains("b64");
        assertThat(keys.find("split")).isEmpty();
        assertThat(keys.find("cret")).isEmpty();
    }

    @Test
    void blanksAroundEntriesAndBlankEntriesAreIgnored() {
        ApiKeys keys = new ApiKeys(List.of("  checkout= 4f9a ", " ", " bare "), List.of());

        assertThat(keys.find("4f9a").map(ApiKey::name)).contains("checkout");
        assertThat(keys.find("bare").map(ApiKey::name)).contains("key-1");
    }

    @Test
    void noKeysKnowNothing() {
        ApiKeys keys = new ApiKeys(List.of(), List.of());

        assertThat(keys.find("")).isEmpty();
        assertThat(keys.find("anything")).isEmpty();
        assertThat(keys.find(null)).isEmpty();
    }

    @Test
    void emptySecretIsNeverAKey() {
        ApiKeys keys = new ApiKeys(List.of("checkout=4f9a", "bare"), List.of("ops=77c1"));

        assertThat(keys.find("")).isEmpty();
    }

    @Test
    void twoKeysWithOneNameAreRefused() {
        assertRefused(List.of("checkout=s3cr3t-a", "checkout=s3cr3t-b"), List.of(),
                "two API keys are named 'checkout'");
        assertRefused(List.of("shared=s3cr3t-a"), List.of("shared=s3cr3t-b"), "two API keys are named 'shared'");
        // an explicit name may collide with a generated one
        assertRefused(List.of("key-1=s3cr3t-a", "s3cr3t-b"), List.of(), "two API keys are named 'key-1'");
    }

    @Test
    void oneSecretForTwoKeysIsRefused() {
        assertRefused(List.of("checkout=s3cr3t"), List.of("ops=s3cr3t"),
                "the API keys 'checkout' and 'ops' have the same secret");
    }

    @Test
    void nameThatIsNotANameIsRefused() {
        assertRefused(List.of("fine=s3cr3t-a", "s3cr3t word=s3cr3t-b"), List.of(),
                "entry 2 of tickler.api.keys has a name");
        assertRefused(List.of(), List.of("=s3cr3t"), "entry 1 of tickler.api.operator-keys has a name");
    }

    @Test
    void secretThatIsOnlyPaddingIsRefused() {
        // a bare base64 secret: read as name=secret, its body would become a name in the logs
        assertRefused(List.of("s3cr3tLWtleQ=="), List.of(), "entry 1 of tickler.api.keys has nothing but '='");
        assertRefused(List.of("fine=s3cr3t", "checkout="), List.of(),
                "entry 2 of tickler.api.keys has nothing but '='");
    }

    /** Refused at start with this message, which shows no secret (each test's secrets contain "s3cr3t"). */
    private static void assertRefused(List<String> products, List<String> operators, String message) {
        assertThatThrownBy(() -> new ApiKeys(products, operators))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(message)
                .message().doesNotContain("s3cr3t");
    }
}
