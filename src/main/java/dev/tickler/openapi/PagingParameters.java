package dev.tickler.openapi;

import java.math.BigDecimal;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

import io.quarkus.smallrye.openapi.OpenApiFilter;

import dev.tickler.reminder.rest.PageParameters;

/**
 * The paging parameters every /v1 list reads ({@link PageParameters}), described once: limit is a whole number with
 * its range and default, after a cursor from a page's next. The resources take both as text, to refuse a bad one with
 * a problem document of their own, so the scan alone would call limit a string. Runs when the application is built.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class PagingParameters implements OASFilter {

    @Override
    public Parameter filterParameter(Parameter parameter) {
        if (parameter.getIn() != Parameter.In.QUERY) {
            return parameter;
        }
        if (parameter.getName().equals("limit")) {
            parameter.description("How many items a page holds, 1 to " + PageParameters.MAX_LIMIT + "; "
                    + PageParameters.DEFAULT_LIMIT + " when left out")
                    .schema(OASFactory.createSchema().addType(SchemaType.INTEGER)
                            .minimum(BigDecimal.ONE).maximum(BigDecimal.valueOf(PageParameters.MAX_LIMIT))
                            .defaultValue(PageParameters.DEFAULT_LIMIT));
        } else if (parameter.getName().equals("after")) {
            parameter.description("The next of the previous page; the first page when left out");
        }
        return parameter;
    }
}
