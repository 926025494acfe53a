package dev.tickler.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;

/** Who a request acts for: the key's name and tenant, or anonymous. */
class CallerTest {

    @Test
    void callerIsTheKeysName() {
        QuarkusSecurityIdentity identity = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal("checkout"))
                .addRole(Roles.PRODUCT)
                .build();

        assertThat(Caller.of(identity)).isEqualTo(new Caller("checkout", "checkout", false));
        assertThat(Caller.of(identity)).hasToString("checkout");
    }

    @Test
    void aKeysTenantIsTheFirstPartOfItsName() {
        assertThat(Caller.of(identity("checkout/2026-12", Roles.PRODUCT)))
                .isEqualTo(new Caller("checkout/2026-12", "checkout", false));
        assertThat(Caller.of(identity("key-3", Roles.PRODUCT)).tenant()).isEqualTo(Tenants.DEFAULT);
        assertThat(Caller.of(identity("operator-1", Roles.OPERATOR)).tenant()).isEqualTo(Tenants.DEFAULT);
    }

    @Test
    void onlyAConfiguredOperatorKeySeesEveryTenant() {
        assertThat(Caller.of(identity("ops", Roles.PRODUCT, Roles.OPERATOR, Roles.EVERY_TENANT)).visibleTenant())
                .isNull();
        // an operator only because no operator key is configured keeps to its tenant on the product paths
        assertThat(Caller.of(identity("checkout/1", Roles.PRODUCT, Roles.OPERATOR)).visibleTenant())
                .isEqualTo("checkout");
        assertThat(Caller.of(identity("billing", Roles.PRODUCT)).visibleTenant()).isEqualTo("billing");
    }

    private static SecurityIdentity identity(String name, String... roles) {
        QuarkusSecurityIdentity.Builder builder = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(name));
        for (String role : roles) {
            builder.addRole(role);
        }
        return builder.build();
    }

    @Test
    void requestWithoutAKeyIsAnonymous() {
        QuarkusSecurityIdentity anonymous = QuarkusSecurityIdentity.builder().setAnonymous(true).build();

        assertThat(Caller.of(anonymous)).isEqualTo(Caller.ANONYMOUS);
        assertThat(Caller.of((SecurityIdentity) null)).isEqualTo(Caller.ANONYMOUS);
    }
}
