package dev.tickler.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;

/** The name other code records for a request: the key's name, or anonymous. */
class CallerTest {

    @Test
    void callerIsTheKeysName() {
        QuarkusSecurityIdentity identity = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal("checkout"))
                .addRole(Roles.PRODUCT)
                .build();

        assertThat(Caller.of(identity)).isEqualTo(new Caller("checkout"));
        assertThat(Caller.of(identity)).hasToString("checkout");
    }

    @Test
    void requestWithoutAKeyIsAnonymous() {
        QuarkusSecurityIdentity anonymous = QuarkusSecurityIdentity.builder().setAnonymous(true).build();

        assertThat(Caller.of(anonymous)).isEqualTo(Caller.ANONYMOUS);
        assertThat(Caller.of((SecurityIdentity) null)).isEqualTo(Caller.ANONYMOUS);
    }
}
