package dev.rmtemu.emulator.spi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.json.Json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Locale;
import java.util.List;
import java.util.Map;

/**
 * The one form of every experiment's JSON document (docs/schema/experiment.schema.json):
 * {@code schema_version} first, then the experiment's own fields in their order, on one line, written by the
 * shared {@link Json} writer. Decimals are read exactly (trailing zeros too), so the digits an experiment chose stay;
 * a NaN or infinity (a ratio of nothing) becomes {@code null}, since JSON has no such numbers.
 */
public final class ExperimentJson {
    private static final JsonMapper READER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    private ExperimentJson() {
    }

    /** {@code json} (an object) in the shared form; refuses (as a bug) anything that is not a JSON object. */
    public static String document(String json) {
        JsonNode root;
        try {
            root = READER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("experiment JSON does not parse: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalStateException("experiment JSON is not an object");
        }
        ObjectNode out = Json.mapper().createObjectNode();
        out.put(Json.SCHEMA_VERSION_KEY, Json.SCHEMA_VERSION);
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
        root.fields().forEachRemaining(fields::add);
        for (Map.Entry<String, JsonNode> f : fields) {
            if (!f.getKey().equals(Json.SCHEMA_VERSION_KEY)) {
                out.set(f.getKey(), finite(f.getValue()));
            }
        }
        return Json.line(out) + "\n";
    }

    /**
     * {@code v} with exactly {@code places} decimals (the digits {@code String.format("%.Nf")} prints, trailing
     * zeros kept), for a record component of an experiment's JSON; null (JSON null) when {@code v} is NaN or infinite.
     */
    public static BigDecimal decimal(double v, int places) {
        return Double.isFinite(v) ? new BigDecimal(String.format(Locale.ROOT, "%." + places + "f", v)) : null;
    }

    private static JsonNode finite(JsonNode n) {
        if (n.isFloatingPointNumber() && !n.isBigDecimal() && !Double.isFinite(n.doubleValue())) {
            return Json.mapper().nullNode();
        }
        if (n instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String k : names) {
                o.set(k, finite(o.get(k)));
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                a.set(i, finite(a.get(i)));
            }
        }
        return n;
    }
}
