package dev.rmtemu.emulator.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.model.check.ReportRenderer;

/**
 * The one JSON writer of every rmtemu output (report.json, resources.json, experiment JSON and
 * every {@code --json}): Jackson over record types, so keys are the records' component names in
 * snake_case (the naming strategy does it; no key is spelt by hand), numbers are JSON numbers,
 * and key order is the components' order. Maps must be sorted or insertion-ordered by the caller
 * (a TreeMap or LinkedHashMap); no output ever comes from a HashMap's order.
 */
public final class Json {
    /**
     * Version of the documented schemas (docs/schema/*.schema.json), written as {@code schema_version}
     * at the top of report.json, resources.json and experiment JSON; one number, kept with resources.json's
     * writer in the model.
     */
    public static final int SCHEMA_VERSION = ReportRenderer.SCHEMA_VERSION;
    public static final String SCHEMA_VERSION_KEY = ReportRenderer.SCHEMA_VERSION_KEY;

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private Json() {
    }

    /** The shared mapper (thread-safe once built). */
    public static JsonMapper mapper() {
        return MAPPER;
    }

    /** {@code value} as indented JSON with a final newline. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** {@code value} as one line of JSON, no newline (for JSON Lines streams). */
    public static String line(Object value) {
        try {
            return MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** {@code value} as a tree (records must serialise to objects). */
    public static ObjectNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }
}
