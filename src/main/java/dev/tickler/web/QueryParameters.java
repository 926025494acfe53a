package dev.tickler.web;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;

import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.tickler.problem.FieldError;
import dev.tickler.problem.ProblemException;

/**
 * Unknown query parameters are refused on every /v1 call, as unknown body fields are (docs/api.md, "Strict input"): a
 * misspelt filter would otherwise be dropped without a word, and a list answer more than was asked for. What a call
 * takes is what its resource method declares (its query parameters and those of its bean parameters), read once per
 * method. The push path, the console and the management paths are not /v1 and keep their own rules.
 */
public class QueryParameters {

    private final Map<Method, Set<String>> declaredByMethod = new ConcurrentHashMap<>();

    @ServerRequestFilter
    public void refuseUnknown(ContainerRequestContext context, ResourceInfo resource) {
        if (!HttpEdge.isApiPath(context.getUriInfo().getPath()) || resource.getResourceMethod() == null) {
            return;
        }
        Set<String> declared = declaredByMethod.computeIfAbsent(resource.getResourceMethod(),
                QueryParameters::declaredBy);
        List<FieldError> unknown = new ArrayList<>();
        for (String name : new TreeSet<>(context.getUriInfo().getQueryParameters().keySet())) {
            if (!declared.contains(name)) {
                unknown.add(new FieldError(name, declared.isEmpty() ? "unknown query parameter; this call takes none"
                        : "unknown query parameter; this call takes " + String.join(", ", declared)));
            }
        }
        if (!unknown.isEmpty()) {
            throw ProblemException.invalid(unknown);
        }
    }

    private static Set<String> declaredBy(Method method) {
        Set<String> names = new TreeSet<>();
        for (Parameter parameter : method.getParameters()) {
            addDeclared(parameter.getAnnotations(), parameter.getName(), parameter.getType(), names);
        }
        return Collections.unmodifiableSet(names);
    }

    private static void addDeclared(Annotation[] annotations, String javaName, Class<?> type, Set<String> names) {
        for (Annotation annotation : annotations) {
            if (annotation instanceof QueryParam query) {
                names.add(query.value());
            } else if (annotation instanceof RestQuery query) {
                names.add(query.value().isEmpty() ? javaName : query.value());
            } else if (annotation instanceof BeanParam) {
                for (Class<?> bean = type; bean != null && bean != Object.class; bean = bean.getSuperclass()) {
                    for (Field field : bean.getDeclaredFields()) {
                        addDeclared(field.getAnnotations(), field.getName(), field.getType(), names);
                    }
                }
            }
        }
    }
}
