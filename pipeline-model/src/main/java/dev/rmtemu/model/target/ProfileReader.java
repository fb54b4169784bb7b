package dev.rmtemu.model.target;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.target.ProfileSchema.Kind;
import dev.rmtemu.model.target.ProfileSchema.Rule;
import dev.rmtemu.model.text.ClosestName;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON object of a profile file through its {@link ProfileSchema}
 * table: unknown keys are refused when the object is opened, and each value is
 * checked against its rule when it is read. Every error is one line naming the
 * file and the field's path ({@code latency.parserCycles}, {@code phvContainers[1].count}).
 */
final class ProfileReader {
    private static final int MAX_ECHO = 60;

    private final String source;
    private final String path;
    private final JsonNode obj;
    private final Map<String, Rule> schema;

    ProfileReader(String source, String path, JsonNode obj, Map<String, Rule> schema) {
        this.source = source;
        this.path = path;
        this.obj = obj;
        this.schema = schema;
        Iterator<String> names = obj.fieldNames();
        while (names.hasNext()) {
            String key = names.next();
            if (!schema.containsKey(key) && !key.startsWith("_")) {
                throw error("unknown field '" + qualified(ClosestName.cut(key, MAX_ECHO)) + "'"
                        + ClosestName.of(key, ProfileSchema.keys(schema))
                                .map(k -> " (closest known field: '" + qualified(k) + "')").orElse(""));
            }
        }
    }

    String text(String key) {
        return field(key, Kind.TEXT).asText();
    }

    String optionalText(String key) {
        Rule rule = rule(key, Kind.OPTIONAL_TEXT);
        JsonNode n = obj.get(rule.key());
        if (n == null || n.isNull()) {
            return "";
        }
        if (!n.isTextual()) {
            throw error("field '" + qualified(key) + "' must be a string");
        }
        return n.asText();
    }

    /** An int in the rule's range, or {@link TargetProfile#UNLIMITED} where the rule allows "unlimited". */
    int count(String key) {
        Rule rule = rule(key, Kind.COUNT);
        return (int) integer(field(key, Kind.COUNT), rule, qualified(key));
    }

    /** An int in the rule's range, or {@code absent} when the key is not there. */
    int optionalCount(String key, int absent) {
        Rule rule = rule(key, Kind.OPTIONAL_COUNT);
        JsonNode n = obj.get(key);
        return n == null || n.isNull() ? absent : (int) integer(n, rule, qualified(key));
    }

    /** true or false, or {@code absent} when the key is not there. */
    boolean optionalBoolean(String key, boolean absent) {
        rule(key, Kind.OPTIONAL_BOOLEAN);
        JsonNode n = obj.get(key);
        if (n == null || n.isNull()) {
            return absent;
        }
        if (!n.isBoolean()) {
            throw error("field '" + qualified(key) + "' must be true or false, got " + echo(n));
        }
        return n.asBoolean();
    }

    /** The value as it is (null when absent), for a reader that checks its own fields. */
    JsonNode optionalRaw(String key) {
        rule(key, Kind.OPTIONAL_RAW);
        return obj.get(key);
    }

    long longValue(String key) {
        Rule rule = rule(key, Kind.LONG);
        return integer(field(key, Kind.LONG), rule, qualified(key));
    }

    /** A finite number above the rule's minimum and at most its maximum. */
    double number(String key) {
        Rule rule = rule(key, Kind.NUMBER);
        JsonNode n = field(key, Kind.NUMBER);
        double v = n.asDouble();
        if (!n.isNumber() || !Double.isFinite(v) || v <= rule.min() || v > rule.max()) {
            throw error("field '" + qualified(key) + "' must be a number above " + rule.min() + " and at most "
                    + rule.max() + ", got " + echo(n));
        }
        return v;
    }

    List<Integer> counts(String key) {
        Rule rule = rule(key, Kind.COUNT_ARRAY);
        JsonNode n = array(key, Kind.COUNT_ARRAY);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            out.add((int) integer(n.get(i), rule, qualified(key) + "[" + i + "]"));
        }
        return out;
    }

    List<String> texts(String key) {
        JsonNode n = array(key, Kind.TEXT_ARRAY);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            if (!n.get(i).isTextual()) {
                throw error("field '" + qualified(key) + "[" + i + "]' must be a string, got " + echo(n.get(i)));
            }
            out.add(n.get(i).asText());
        }
        return out;
    }

    ProfileReader object(String key, Map<String, Rule> childSchema) {
        JsonNode n = field(key, Kind.OBJECT);
        if (!n.isObject()) {
            throw error("field '" + qualified(key) + "' must be an object");
        }
        return new ProfileReader(source, qualified(key), n, childSchema);
    }

    /** The object under {@code key}, or null when the key is not there. */
    ProfileReader optionalObject(String key, Map<String, Rule> childSchema) {
        rule(key, Kind.OPTIONAL_OBJECT);
        JsonNode n = obj.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            throw error("field '" + qualified(key) + "' must be an object");
        }
        return new ProfileReader(source, qualified(key), n, childSchema);
    }

    List<ProfileReader> objects(String key, Map<String, Rule> childSchema) {
        JsonNode n = array(key, Kind.OBJECT_ARRAY);
        List<ProfileReader> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            String p = qualified(key) + "[" + i + "]";
            if (!n.get(i).isObject()) {
                throw error("field '" + p + "' must be an object");
            }
            out.add(new ProfileReader(source, p, n.get(i), childSchema));
        }
        return out;
    }

    /** A refusal naming the file; {@code what} names the field. */
    UserError error(String what) {
        return new UserError(source + ": " + what);
    }

    /** This object's field {@code key} as users see it in messages. */
    String qualified(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private long integer(JsonNode n, Rule rule, String name) {
        if (n.isTextual() && n.asText().equals("unlimited")) {
            if (!rule.unlimitedAllowed()) {
                throw error("field '" + name + "' cannot be \"unlimited\" (must be an integer in " + rule.range() + ")");
            }
            return TargetProfile.UNLIMITED;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < rule.min() || n.asLong() > rule.max()) {
            throw error("field '" + name + "' must be an integer in " + rule.range() + ", got " + echo(n));
        }
        return n.asLong();
    }

    private JsonNode array(String key, Kind kind) {
        JsonNode n = field(key, kind);
        if (!n.isArray() || n.isEmpty()) {
            throw error("field '" + qualified(key) + "' must be a non-empty array");
        }
        return n;
    }

    private JsonNode field(String key, Kind kind) {
        rule(key, kind);
        JsonNode n = obj.get(key);
        if (n == null || n.isNull()) {
            throw error("missing field '" + qualified(key) + "'");
        }
        return n;
    }

    /** The schema's rule; reading a key the schema does not list, or as another kind, is a bug here. */
    private Rule rule(String key, Kind kind) {
        Rule r = schema.get(key);
        if (r == null || r.kind() != kind) {
            throw new IllegalStateException("profile schema has no " + kind + " field '" + qualified(key) + "'");
        }
        return r;
    }

    private static String echo(JsonNode n) {
        return ClosestName.cut(n.toString(), MAX_ECHO);
    }
}
