package dev.rmtemu.emulator.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * The documented schemas (docs/schema/) generated from the records each output is written from,
 * with the rules of the shared {@link Json} writer: snake_case names ({@code @JsonProperty} wins),
 * every component required unless it omits nulls ({@code @JsonInclude(NON_NULL)} on it), a
 * component kept as null ({@code @JsonInclude(ALWAYS)}) may be null, and no other keys.
 */
public final class OutputSchemas {
    /** The folder of the committed schemas, from a module's directory (where tests run). */
    public static final Path DIR = Path.of("..", "docs", "schema");

    private static final SchemaGenerator GENERATOR = generator();
    private static final JsonSchemaFactory VALIDATORS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private OutputSchemas() {
    }

    /**
     * The schema of {@code type} with a title and description; {@code envelope} (key to schema, or
     * null) are keys written around the record's (report.json's {@code schema_version}, {@code complete},
     * ...): they come first, required unless listed in {@code optional}.
     */
    public static ObjectNode generate(Class<?> type, String title, String description, ObjectNode envelope,
                                      Set<String> optional) {
        ObjectNode generated = GENERATOR.generateSchema(type);
        ObjectNode schema = Json.mapper().createObjectNode();
        schema.put("$schema", generated.path("$schema").asText());
        schema.put("title", title);
        schema.put("description", description);
        ObjectNode props = Json.mapper().createObjectNode();
        ArrayNode required = Json.mapper().createArrayNode();
        if (envelope != null) {
            envelope.fields().forEachRemaining(f -> {
                props.set(f.getKey(), f.getValue());
                if (!optional.contains(f.getKey())) {
                    required.add(f.getKey());
                }
            });
        }
        generated.fields().forEachRemaining(f -> {
            switch (f.getKey()) {
                case "$schema" -> { }
                case "properties" -> props.setAll((ObjectNode) f.getValue());
                case "required" -> f.getValue().forEach(required::add);
                default -> schema.set(f.getKey(), f.getValue());
            }
        });
        schema.set("properties", props);
        schema.set("required", required);
        return schema;
    }

    /** The validation messages of {@code value} against {@code schema} (empty: valid), sorted. */
    public static Set<String> problems(JsonNode schema, JsonNode value) {
        JsonSchema s = VALIDATORS.getSchema(schema);
        Set<String> out = new TreeSet<>();
        for (ValidationMessage m : s.validate(value)) {
            out.add(m.getMessage());
        }
        return out;
    }

    private static SchemaGenerator generator() {
        SchemaGeneratorConfigBuilder b = new SchemaGeneratorConfigBuilder(Json.mapper(), SchemaVersion.DRAFT_2020_12,
                OptionPreset.PLAIN_JSON)
                .with(Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT, Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES,
                        Option.FLATTENED_ENUMS);
        // a JsonNode component holds a document of its own schema (topo's topology, report.json's results)
        b.forTypesInGeneral().withCustomDefinitionProvider((type, context) -> JsonNode.class.isAssignableFrom(type.getErasedType())
                ? new CustomDefinition(context.getGeneratorConfig().createObjectNode().put("type", "object")
                        .put("description", "a document in its own schema, described with its command"),
                        CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.NO)
                : null);
        b.forFields().withPropertyNameOverrideResolver(OutputSchemas::name);
        b.forFields().withRequiredCheck(f -> !omitsNull(f));
        b.forFields().withNullableCheck(OutputSchemas::keepsNull);
        return new SchemaGenerator(b.build());
    }

    private static String name(FieldScope f) {
        JsonProperty p = f.getAnnotationConsideringFieldAndGetter(JsonProperty.class);
        if (p != null && !p.value().isEmpty()) {
            return p.value();
        }
        return ((PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE).translate(f.getDeclaredName());
    }

    private static boolean omitsNull(FieldScope f) {
        if (f.getType().isPrimitive()) {
            return false;
        }
        JsonInclude own = f.getAnnotationConsideringFieldAndGetter(JsonInclude.class);
        return own != null && own.value() == JsonInclude.Include.NON_NULL;
    }

    private static boolean keepsNull(FieldScope f) {
        JsonInclude own = f.getAnnotationConsideringFieldAndGetter(JsonInclude.class);
        return own != null && own.value() == JsonInclude.Include.ALWAYS;
    }
}
