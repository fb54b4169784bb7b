package dev.rmtemu.model.target;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.register.AtomTemplate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Built-in target profiles and user profiles from JSON files. In the JSON,
 * any count may be the string {@code "unlimited"}. Errors name the file and field.
 */
public final class TargetProfiles {
    /** Names of the built-in profiles, in the order they are listed to users. */
    public static final List<String> BUILT_IN = List.of("tofino1", "tofino2", "rmt", "unconstrained");

    private static final ObjectMapper JSON = new ObjectMapper();

    private TargetProfiles() {
    }

    /** A built-in profile by name, or a JSON file path. */
    public static TargetProfile load(String nameOrPath) {
        if (BUILT_IN.contains(nameOrPath)) {
            return builtIn(nameOrPath);
        }
        Path p = Path.of(nameOrPath);
        if (nameOrPath.endsWith(".json") || Files.exists(p)) {
            if (!Files.isRegularFile(p)) {
                throw new UserError("target profile file not found: " + nameOrPath);
            }
            try {
                return parse(Files.readString(p), p.toString());
            } catch (IOException e) {
                throw new UserError("cannot read target profile " + nameOrPath + ": " + e.getMessage(), e);
            }
        }
        throw new UserError("unknown target '" + nameOrPath + "' (built-in: " + String.join(", ", BUILT_IN)
                + "; or a path to a JSON profile)");
    }

    public static TargetProfile builtIn(String name) {
        try (InputStream in = TargetProfiles.class.getResourceAsStream(name + ".json")) {
            if (in == null) {
                throw new UserError("unknown target '" + name + "' (built-in: " + String.join(", ", BUILT_IN) + ")");
            }
            return parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8), name + ".json");
        } catch (IOException e) {
            throw new IllegalStateException("built-in profile " + name + " unreadable", e);
        }
    }

    /** Parses a profile; {@code source} names the file in error messages. */
    public static TargetProfile parse(String json, String source) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UserError(source + ": not valid JSON at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr(), e);
        }
        if (root == null || !root.isObject()) {
            throw new UserError(source + ": a target profile must be a JSON object");
        }
        Reader r = new Reader(source);
        List<Integer> widths = new ArrayList<>();
        for (JsonNode w : r.array(root, "registerCellWidths")) {
            widths.add(r.intValue(w, "registerCellWidths[]"));
        }
        Set<AtomTemplate> templates = EnumSet.noneOf(AtomTemplate.class);
        for (JsonNode t : r.array(root, "templates")) {
            try {
                templates.add(AtomTemplate.valueOf(t.asText()));
            } catch (IllegalArgumentException e) {
                throw new UserError(source + ": templates: unknown template '" + t.asText() + "' (known: "
                        + java.util.Arrays.toString(AtomTemplate.values()) + ")");
            }
        }
        List<PhvContainerGroup> phv = new ArrayList<>();
        for (JsonNode g : r.array(root, "phvContainers")) {
            phv.add(new PhvContainerGroup(r.count(g, "widthBits"), r.count(g, "count"),
                    g.has("ingressOnly") ? r.count(g, "ingressOnly") : 0, g.has("egressOnly") ? r.count(g, "egressOnly") : 0));
        }
        JsonNode lat = r.object(root, "latency");
        StageLatencyModel latency = new StageLatencyModel(
                r.count(lat, "matchStageCycles"), r.count(lat, "statefulAluCycles"), r.count(lat, "tcamCycles"),
                r.count(lat, "actionDependentCycles"), r.count(lat, "concurrentCycles"),
                r.count(lat, "minIngressCycles"), r.count(lat, "minEgressCycles"),
                r.count(lat, "parserCycles"), r.count(lat, "deparserCycles"), r.count(lat, "trafficManagerCycles"));
        long clock = r.longValue(root, "clockHz");
        if (clock <= 0) {
            throw new UserError(source + ": clockHz must be positive");
        }
        return new TargetProfile(
                r.text(root, "name"),
                root.has("description") ? root.get("description").asText() : "",
                r.count(root, "stagesPerGress"),
                r.count(root, "pipes"),
                r.count(root, "portsPerPipe"),
                clock,
                r.memory(root, "sram"),
                r.memory(root, "tcam"),
                r.count(root, "statefulAlusPerStage"),
                r.count(root, "registerWordBits"),
                widths,
                r.count(root, "saluMaxConditions"),
                r.count(root, "saluMaxBranchesPerWord"),
                templates,
                r.count(root, "hashFunctionsPerStage"),
                r.count(root, "hashBitsPerFunction"),
                r.count(root, "logicalTablesPerStage"),
                phv,
                latency,
                r.longValue(root, "tmBufferBytes"),
                r.count(root, "tmCellBytes"),
                r.doubleValue(root, "recirculationGbps"),
                r.count(root, "exactEntryOverheadBits"),
                r.optionalBoolean(root, "fullArithmetic", false),
                MauResources.parse(root.get("mau"), source));
    }

    /** Field access with errors that name the file and the field. */
    private record Reader(String source) {
        JsonNode field(JsonNode obj, String name) {
            JsonNode n = obj.get(name);
            if (n == null || n.isNull()) {
                throw new UserError(source + ": missing field '" + name + "'");
            }
            return n;
        }

        String text(JsonNode obj, String name) {
            return field(obj, name).asText();
        }

        JsonNode object(JsonNode obj, String name) {
            JsonNode n = field(obj, name);
            if (!n.isObject()) {
                throw new UserError(source + ": field '" + name + "' must be an object");
            }
            return n;
        }

        Iterable<JsonNode> array(JsonNode obj, String name) {
            JsonNode n = field(obj, name);
            if (!n.isArray()) {
                throw new UserError(source + ": field '" + name + "' must be an array");
            }
            return n;
        }

        /** A non-negative int, or "unlimited". */
        int count(JsonNode obj, String name) {
            JsonNode n = field(obj, name);
            if (n.isTextual() && n.asText().equals("unlimited")) {
                return TargetProfile.UNLIMITED;
            }
            return intValue(n, name);
        }

        int intValue(JsonNode n, String name) {
            if (!n.canConvertToInt() || !n.isIntegralNumber() || n.asInt() < 0) {
                throw new UserError(source + ": field '" + name + "' must be a non-negative integer or \"unlimited\", got " + n);
            }
            return n.asInt();
        }

        boolean optionalBoolean(JsonNode obj, String name, boolean absent) {
            JsonNode n = obj.get(name);
            if (n == null) {
                return absent;
            }
            if (!n.isBoolean()) {
                throw new UserError(source + ": field '" + name + "' must be true or false, got " + n);
            }
            return n.asBoolean();
        }

        long longValue(JsonNode obj, String name) {
            JsonNode n = field(obj, name);
            if (!n.isIntegralNumber() || n.asLong() < 0) {
                throw new UserError(source + ": field '" + name + "' must be a non-negative integer, got " + n);
            }
            return n.asLong();
        }

        double doubleValue(JsonNode obj, String name) {
            JsonNode n = field(obj, name);
            if (!n.isNumber() || n.asDouble() <= 0) {
                throw new UserError(source + ": field '" + name + "' must be a positive number, got " + n);
            }
            return n.asDouble();
        }

        MemoryGeometry memory(JsonNode obj, String name) {
            JsonNode m = object(obj, name);
            int blocks = count(m, "blocks");
            int depth = count(m, "depth");
            int width = count(m, "widthBits");
            if (blocks == 0 || depth == 0 || width == 0) {
                throw new UserError(source + ": " + name + ": blocks, depth and widthBits must be positive");
            }
            return new MemoryGeometry(blocks, depth, width);
        }
    }
}
