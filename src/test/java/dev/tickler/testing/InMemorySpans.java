package dev.tickler.testing;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;

/**
 * Where finished spans go in tests: a span exporter bean, which the OpenTelemetry extension uses in place of its OTLP
 * exporter, each span handed over as it ends. Only {@link TracingProfile} turns the SDK on.
 */
@ApplicationScoped
public class InMemorySpans {

    @Produces
    @Singleton
    InMemorySpanExporter inMemorySpanExporter() {
        return InMemorySpanExporter.create();
    }
}
