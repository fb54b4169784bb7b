package dev.rmtemu.emulator.topology;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.rmtemu.model.UserError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads and writes topology files (JSON or YAML, same schema; see README
 * "Topology files"). Reading checks the shape (unknown or missing fields, bad
 * numbers) here and the meaning (names, ports, connectivity) in
 * {@link TopologyBuilder}; both report one-line {@link UserError}s naming the
 * file and the element.
 */
public final class TopologyFile {
    /** The two syntaxes of the one schema. */
    public enum Format { JSON, YAML }

    private static final Set<String> TOP_FIELDS = Set.of("defaults", "nodes", "links");
    private static final Set<String> DEFAULT_FIELDS = Set.of("latency_ns", "rate_gbps");
    private static final Set<String> SWITCH_FIELDS = Set.of("name", "type", "target", "ports", "program", "params");
    private static final Set<String> REGULAR_FIELDS = Set.of("name", "type", "ports");
    private static final Set<String> HOST_FIELDS = Set.of("name", "type", "address", "role");
    private static final Set<String> LINK_FIELDS = Set.of("a", "b", "directed", "latency_ns", "rate_gbps",
            "impair", "impair_ab", "impair_ba");

    private TopologyFile() {
    }

    /** Format from a file name's extension: .json, .yaml or .yml. */
    public static Format formatOf(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".json")) {
            return Format.JSON;
        }
        if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
            return Format.YAML;
        }
        throw new UserError(fileName + ": unknown topology file extension (use .json, .yaml or .yml)");
    }

    /** Reads a topology file; the format comes from the extension. */
    public static Topology read(Path file) {
        String name = file.toString();
        Format format = formatOf(name);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError(name + ": cannot read topology file (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")", e);
        }
        return parse(text, name, format);
    }

    /** Parses topology text; {@code source} names it in error messages. */
    public static Topology parse(String text, String source, Format format) {
        JsonNode root;
        try {
            root = mapper(format).readTree(text);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ": ";
            String msg = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
            int nl = msg.indexOf('\n');
            throw new UserError(source + ": " + where + "syntax error: " + (nl < 0 ? msg : msg.substring(0, nl)), e);
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new UserError(source + ": empty topology file");
        }
        return new Reader(source).read(root);
    }

    private static ObjectMapper mapper(Format format) {
        ObjectMapper m = format == Format.JSON ? new ObjectMapper()
                : new ObjectMapper(YAMLFactory.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build());
        m.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        m.enable(SerializationFeature.INDENT_OUTPUT);
        return m;
    }

    /** Walks the tree; every check names {@code source: element: ...}. */
    private static final class Reader {
        private final String source;
        private final TopologyBuilder builder;
        private Long defaultLatency;
        private Double defaultRate;

        Reader(String source) {
            this.source = source;
            this.builder = new TopologyBuilder(source);
        }

        Topology read(JsonNode root) {
            if (!root.isObject()) {
                throw new UserError(source + ": top level must be an object with 'nodes' and 'links'");
            }
            checkFields(root, TOP_FIELDS, "top level");
            JsonNode defaults = root.get("defaults");
            if (defaults != null) {
                if (!defaults.isObject()) {
                    throw builder.error("defaults", "must be an object");
                }
                checkFields(defaults, DEFAULT_FIELDS, "defaults");
                if (defaults.has("latency_ns")) {
                    defaultLatency = longField(defaults, "latency_ns", "defaults");
                }
                if (defaults.has("rate_gbps")) {
                    defaultRate = doubleField(defaults, "rate_gbps", "defaults");
                }
            }
            JsonNode nodes = list(root, "nodes");
            for (int i = 0; i < nodes.size(); i++) {
                node(nodes.get(i), "nodes[" + i + "]");
            }
            JsonNode links = list(root, "links");
            for (int i = 0; i < links.size(); i++) {
                link(links.get(i), "links[" + i + "]");
            }
            return builder.build();
        }

        private JsonNode list(JsonNode root, String field) {
            JsonNode n = root.get(field);
            if (n == null) {
                throw new UserError(source + ": missing field '" + field + "'");
            }
            if (!n.isArray()) {
                throw new UserError(source + ": '" + field + "' must be a list");
            }
            return n;
        }

        private void node(JsonNode n, String where) {
            if (!n.isObject()) {
                throw builder.error(where, "must be an object");
            }
            String type = text(n, "type", where);
            String name = text(n, "name", where);
            switch (type) {
                case "switch" -> {
                    checkFields(n, SWITCH_FIELDS, where);
                    builder.programmableSwitch(name, text(n, "target", where), intField(n, "ports", where),
                            n.has("program") ? text(n, "program", where) : null, keyValues(n, "params", where));
                }
                case "regular" -> {
                    checkFields(n, REGULAR_FIELDS, where);
                    builder.regularSwitch(name, intField(n, "ports", where));
                }
                case "host" -> {
                    checkFields(n, HOST_FIELDS, where);
                    String addr = text(n, "address", where);
                    Ipv4Prefix prefix;
                    try {
                        prefix = Ipv4Prefix.parse(addr);
                    } catch (IllegalArgumentException e) {
                        throw builder.error(where, "bad address: " + e.getMessage());
                    }
                    HostRole role = HostRole.BOTH;
                    if (n.has("role")) {
                        String r = text(n, "role", where);
                        role = HostRole.byFileName(r);
                        if (role == null) {
                            throw builder.error(where, "unknown role '" + r + "' (use source, sink or both)");
                        }
                    }
                    builder.host(name, prefix, role);
                }
                default -> throw builder.error(where, "unknown type '" + type + "' (use switch, regular or host)");
            }
        }

        private void link(JsonNode n, String where) {
            if (!n.isObject()) {
                throw builder.error(where, "must be an object");
            }
            checkFields(n, LINK_FIELDS, where);
            String[] a = endpoint(n, "a", where);
            String[] b = endpoint(n, "b", where);
            boolean directed = false;
            if (n.has("directed")) {
                JsonNode d = n.get("directed");
                if (!d.isBoolean()) {
                    throw builder.error(where, "'directed' must be true or false");
                }
                directed = d.booleanValue();
            }
            long latency;
            if (n.has("latency_ns")) {
                latency = longField(n, "latency_ns", where);
            } else if (defaultLatency != null) {
                latency = defaultLatency;
            } else {
                throw builder.error(where, "missing field 'latency_ns' (and no defaults.latency_ns)");
            }
            double rate;
            if (n.has("rate_gbps")) {
                rate = doubleField(n, "rate_gbps", where);
            } else if (defaultRate != null) {
                rate = defaultRate;
            } else {
                throw builder.error(where, "missing field 'rate_gbps' (and no defaults.rate_gbps)");
            }
            KeyValues both = keyValues(n, "impair", where);
            KeyValues ab = keyValues(n, "impair_ab", where);
            KeyValues ba = keyValues(n, "impair_ba", where);
            if (n.has("impair") && (n.has("impair_ab") || n.has("impair_ba"))) {
                throw builder.error(where, "use either 'impair' (both directions) or 'impair_ab'/'impair_ba', not both");
            }
            if (n.has("impair")) {
                ab = both;
                ba = directed ? KeyValues.EMPTY : both;
            }
            builder.link(a[0], Integer.parseInt(a[1]), b[0], Integer.parseInt(b[1]), !directed, latency, rate, ab, ba);
        }

        private String[] endpoint(JsonNode n, String field, String where) {
            String s = text(n, field, where);
            int colon = s.lastIndexOf(':');
            String port = colon < 0 ? "" : s.substring(colon + 1);
            if (colon <= 0 || port.isEmpty() || port.length() > 9 || !port.chars().allMatch(Character::isDigit)) {
                throw builder.error(where, "bad endpoint '" + s + "' in '" + field + "' (expected node:port)");
            }
            return new String[] {s.substring(0, colon), port};
        }

        private void checkFields(JsonNode n, Set<String> allowed, String where) {
            Iterator<String> it = n.fieldNames();
            while (it.hasNext()) {
                String f = it.next();
                if (!allowed.contains(f)) {
                    List<String> sorted = new ArrayList<>(allowed);
                    sorted.sort(null);
                    String msg = "unknown field '" + f + "' (allowed: " + String.join(", ", sorted) + ")";
                    throw where.equals("top level") ? new UserError(source + ": " + msg) : builder.error(where, msg);
                }
            }
        }

        private JsonNode required(JsonNode n, String field, String where) {
            JsonNode v = n.get(field);
            if (v == null || v.isNull()) {
                throw builder.error(where, "missing field '" + field + "'");
            }
            return v;
        }

        private String text(JsonNode n, String field, String where) {
            JsonNode v = required(n, field, where);
            if (!v.isValueNode()) {
                throw builder.error(where, "'" + field + "' must be a single value");
            }
            return v.asText();
        }

        private int intField(JsonNode n, String field, String where) {
            long v = longField(n, field, where);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw builder.error(where, "number " + v + " too large for '" + field + "'");
            }
            return (int) v;
        }

        private long longField(JsonNode n, String field, String where) {
            JsonNode v = required(n, field, where);
            if (v.isIntegralNumber() && v.canConvertToLong()) {
                return v.longValue();
            }
            String s = v.asText();
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                throw builder.error(where, "bad number '" + s + "' for '" + field + "' (expected an integer)");
            }
        }

        private double doubleField(JsonNode n, String field, String where) {
            JsonNode v = required(n, field, where);
            if (v.isNumber()) {
                return v.doubleValue();
            }
            String s = v.asText();
            try {
                double d = Double.parseDouble(s.trim());
                if (Double.isNaN(d)) {
                    throw new NumberFormatException();
                }
                return d;
            } catch (NumberFormatException e) {
                throw builder.error(where, "bad number '" + s + "' for '" + field + "'");
            }
        }

        private KeyValues keyValues(JsonNode n, String field, String where) {
            JsonNode v = n.get(field);
            if (v == null || v.isNull()) {
                return KeyValues.EMPTY;
            }
            if (!v.isObject()) {
                throw builder.error(where, "'" + field + "' must be a map of key: value");
            }
            List<KeyValues.Entry> entries = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                    throw builder.error(where, field + "." + e.getKey() + " must be a single value");
                }
                entries.add(new KeyValues.Entry(e.getKey(), e.getValue().asText()));
            }
            return new KeyValues(entries);
        }
    }

    /** Writes a topology in the file schema (explicit per-link values, no defaults section). */
    public static String write(Topology t, Format format) {
        ObjectMapper m = mapper(format);
        ObjectNode root = m.createObjectNode();
        ArrayNode nodes = root.putArray("nodes");
        for (Node n : t.nodes()) {
            ObjectNode o = nodes.addObject();
            o.put("name", n.name());
            o.put("type", n.kind().fileName());
            switch (n.kind()) {
                case PROGRAMMABLE_SWITCH -> {
                    o.put("target", n.target());
                    o.put("ports", n.ports());
                    if (n.program() != null) {
                        o.put("program", n.program());
                    }
                    if (!n.params().isEmpty()) {
                        putKeyValues(o.putObject("params"), n.params());
                    }
                }
                case REGULAR_SWITCH -> o.put("ports", n.ports());
                case HOST -> {
                    o.put("address", n.address().toString());
                    o.put("role", n.role().fileName());
                }
            }
        }
        ArrayNode links = root.putArray("links");
        for (Link l : t.links()) {
            ObjectNode o = links.addObject();
            o.put("a", l.a().toString());
            o.put("b", l.b().toString());
            if (!l.bidirectional()) {
                o.put("directed", true);
            }
            o.put("latency_ns", l.latencyNs());
            o.put("rate_gbps", l.rateGbps());
            if (!l.bidirectional()) {
                if (!l.impairAtoB().isEmpty()) {
                    putKeyValues(o.putObject("impair"), l.impairAtoB());
                }
            } else if (l.impairAtoB().equals(l.impairBtoA())) {
                if (!l.impairAtoB().isEmpty()) {
                    putKeyValues(o.putObject("impair"), l.impairAtoB());
                }
            } else {
                if (!l.impairAtoB().isEmpty()) {
                    putKeyValues(o.putObject("impair_ab"), l.impairAtoB());
                }
                if (!l.impairBtoA().isEmpty()) {
                    putKeyValues(o.putObject("impair_ba"), l.impairBtoA());
                }
            }
        }
        try {
            return m.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise topology", e);
        }
    }

    private static void putKeyValues(ObjectNode o, KeyValues kv) {
        for (KeyValues.Entry e : kv.entries()) {
            o.put(e.key(), e.value());
        }
    }
}
