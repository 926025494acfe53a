package dev.tickler.web;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;

import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveResourceInfo;
import org.jboss.resteasy.reactive.server.spi.ServerMessageBodyReader;
import org.jboss.resteasy.reactive.server.spi.ServerRequestContext;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads every {@link JsonBody} parameter through {@link JsonBodies}. The REST layer looks for a reader of a body's
 * interfaces before one of Object, so this one comes before Jackson's for these types and no resource has to ask.
 */
@Provider
@ConstrainedTo(RuntimeType.SERVER)
@Consumes(MediaType.APPLICATION_JSON)
public class JsonBodyReader implements ServerMessageBodyReader<JsonBody> {

    private final JsonBodies bodies;

    public JsonBodyReader(JsonBodies bodies) {
        this.bodies = bodies;
    }

    @Override
    public boolean isReadable(Class<?> type, Type genericType, ResteasyReactiveResourceInfo lazyMethod,
            MediaType mediaType) {
        return JsonBody.class.isAssignableFrom(type);
    }

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return JsonBody.class.isAssignableFrom(type);
    }

    @Override
    public JsonBody readFrom(Class<JsonBody> type, Type genericType, MediaType mediaType, ServerRequestContext context)
            throws IOException {
        return read(type, context.getInputStream());
    }

    @Override
    public JsonBody readFrom(Class<JsonBody> type, Type genericType, Annotation[] annotations, MediaType mediaType,
            MultivaluedMap<String, String> httpHeaders, InputStream entityStream) throws IOException {
        return read(type, entityStream);
    }

    /** No body (or JSON null) is null, for the parameter's own "a JSON object is required". */
    private JsonBody read(Class<JsonBody> type, InputStream entity) throws IOException {
        JsonNode body = bodies.parse(entity);
        return body == null ? null : bodies.bind(body, type);
    }
}
