package dev.tickler.security;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * The API's security scheme in the OpenAPI document; the operations that need it, with their roles and their 401
 * and 403 answers, are added from their {@code @RolesAllowed} (quarkus.smallrye-openapi.security-scheme-name).
 */
@SecurityScheme(securitySchemeName = ApiSecurityScheme.NAME, type = SecuritySchemeType.HTTP, scheme = "bearer",
        description = "An API key: a product key (tickler.api.keys) or an operator key (tickler.api.operator-keys)")
public class ApiSecurityScheme extends Application {

    static final String NAME = "bearer";
}
