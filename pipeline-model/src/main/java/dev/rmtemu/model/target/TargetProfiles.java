package dev.rmtemu.model.target;

import com.fasterxml.jackson.core.JsonParser;
import dev.rmtemu.model.text.ClosestName;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
import com.fasterxml.jackson.core.JsonLocation;

/**
 * Built-in target profiles and user profiles from JSON files. Every field is
 * checked against its rule in {@link ProfileSchema} where it is read; counts
 * that can be unbounded may be the string {@code "unlimited"}. Errors name the
 * file and the field.
 */
public final class TargetProfiles {
    /** Names of the built-in profiles, in the order they are listed to users. */
    public static final List<String> BUILT_IN = List.of("tofino1", "tofino2", "rmt", "unconstrained");

    /** A key given twice is refused (Jackson would keep the last one silently). */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

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
                throw new UserError(Files.exists(p) ? nameOrPath + ": target profile is not a regular file"
                        : "target profile file not found: " + nameOrPath);
            }
            try {
                return parse(Files.readString(p), p.toString());
            } catch (CharacterCodingException e) {
                throw new UserError(nameOrPath + ": not UTF-8 text", e);
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
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), name + ".json");
        } catch (IOException e) {
            throw new IllegalStateException("built-in profile " + name + " unreadable", e);
        }
    }

    /** Parses a profile; {@code source} names the file in error messages. */
    public static TargetProfile parse(String json, String source) {
        JsonNode root;
        try (JsonParser parser = JSON.createParser(json)) {
            root = JSON.readTree(parser);
            if (root != null && parser.nextToken() != null) {
                // a second document (or any other text) after the profile: which one did the user mean?
                JsonLocation at = parser.currentTokenLocation();
                throw new UserError(source + ": text after the profile's JSON object at line " + at.getLineNr()
                        + ", column " + at.getColumnNr() + " (a profile file holds one JSON object)");
            }
        } catch (JsonProcessingException e) {
            // a limit (nesting depth, number length) may come without a location
            throw new UserError(source + ": not valid JSON" + (e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()), e);
        } catch (IOException e) {
            throw new UserError(source + ": cannot read: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new UserError(source + ": a target profile must be a JSON object");
        }
        ProfileReader r = new ProfileReader(source, "", root, ProfileSchema.ROOT);
        List<Integer> widths = r.counts("registerCellWidths");
        Set<AtomTemplate> templates = EnumSet.noneOf(AtomTemplate.class);
        for (String t : r.texts("templates")) {
            try {
                templates.add(AtomTemplate.valueOf(t));
            } catch (IllegalArgumentException e) {
                throw r.error("templates: unknown template '" + ClosestName.cut(t, 60)
                        + "' (known: " + Arrays.toString(AtomTemplate.values()) + ")");
            }
        }
        List<PhvContainerGroup> phv = new ArrayList<>();
        for (ProfileReader g : r.objects("phvContainers", ProfileSchema.PHV_GROUP)) {
            phv.add(new PhvContainerGroup(g.count("widthBits"), g.count("count"),
                    g.optionalCount("ingressOnly", 0), g.optionalCount("egressOnly", 0), g.optionalBoolean("tagalong", false)));
        }
        ProfileReader lat = r.object("latency", ProfileSchema.LATENCY);
        StageLatencyModel latency = new StageLatencyModel(
                lat.count("matchStageCycles"), lat.count("statefulAluCycles"), lat.count("tcamCycles"),
                lat.count("actionDependentCycles"), lat.count("concurrentCycles"),
                lat.count("minIngressCycles"), lat.count("minEgressCycles"),
                lat.count("parserCycles"), lat.count("deparserCycles"), lat.count("trafficManagerCycles"));
        TargetProfile profile = new TargetProfile(
                r.text("name"),
                r.optionalText("description"),
                r.count("stagesPerGress"),
                r.count("pipes"),
                r.count("portsPerPipe"),
                r.longValue("clockHz"),
                memory(r, "sram"),
                memory(r, "tcam"),
                r.count("statefulAlusPerStage"),
                r.count("registerWordBits"),
                widths,
                r.count("saluMaxConditions"),
                r.count("saluMaxBranchesPerWord"),
                templates,
                r.count("hashFunctionsPerStage"),
                r.count("hashBitsPerFunction"),
                r.count("logicalTablesPerStage"),
                phv,
                latency,
                r.longValue("tmBufferBytes"),
                r.count("tmCellBytes"),
                r.number("recirculationGbps"),
                r.count("exactEntryOverheadBits"),
                r.optionalBoolean("fullArithmetic", false),
                MauResources.parse(r.optionalRaw("mau"), source),
                parserLimits(r.optionalObject("parser", ProfileSchema.PARSER)));
        ProfileProducts.check(profile, r);
        return profile;
    }

    private static ParserLimits parserLimits(ProfileReader p) {
        return p == null ? ParserLimits.UNCONSTRAINED : new ParserLimits(p.count("tcamRows"), p.count("inputBufferBytes"),
                p.count("selectKeyBits"), p.count("windowBytes"));
    }

    private static MemoryGeometry memory(ProfileReader r, String name) {
        ProfileReader m = r.object(name, ProfileSchema.MEMORY);
        return new MemoryGeometry(m.count("blocks"), m.count("depth"), m.count("widthBits"));
    }
}
