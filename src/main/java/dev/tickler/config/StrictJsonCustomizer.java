package dev.tickler.config;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;

import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * A wrong JSON type is the caller's error to hear about (docs/contract.md#registration-api), not something to coerce
 * into shape.
 */
@Singleton
public class StrictJsonCustomizer implements ObjectMapperCustomizer {

    @Override
    @SuppressWarnings("deprecation") // the builder form needs a mapper we do not own; this is the supported hook
    public void customize(ObjectMapper mapper) {
        mapper.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        for (CoercionInputShape scalar : new CoercionInputShape[] {
                CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean }) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(scalar, CoercionAction.Fail);
        }
    }
}
