package dev.tickler.testing;

import java.util.HashMap;
import java.util.Map;

/**
 * What every test profile adds to its overrides, unless it tests the OpenAPI document: no OpenAPI scan, the longest
 * step of each profile's build (about 2.6 s on 2 cores), and nothing stored, so that the document of the shared
 * application under target/openapi, which {@code OpenApiDocumentTest} reads, is never replaced by another build's.
 */
public final class OwnApplication {

    private OwnApplication() {
    }

    public static Map<String, String> withoutApiDocument(Map<String, String> overrides) {
        Map<String, String> config = new HashMap<>(overrides);
        config.put("mp.openapi.scan.disable", "true");
        config.put("quarkus.smallrye-openapi.store-schema-directory", "");
        return config;
    }
}
