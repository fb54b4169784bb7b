package dev.rmtemu.traces;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.gen.GeneratorConfig;
import dev.rmtemu.traces.gen.GeneratorKind;
import dev.rmtemu.traces.gen.SyntheticSource;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.store.TraceStore;
import dev.rmtemu.traces.store.TraceStoreSource;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns a trace spec string into a {@link PacketSource}:
 * <ul>
 *   <li>{@code gen:KIND?key=value&...} — a generator ({@link GeneratorConfig} keys);</li>
 *   <li>a directory holding a trace store ({@link TraceStore});</li>
 *   <li>a file: pcap or pcapng, told apart by magic number, not by extension.</li>
 * </ul>
 */
public final class TraceSpec {
    /** Prefix of generator specs. */
    public static final String GENERATOR_PREFIX = "gen:";

    private TraceSpec() {
    }

    public static PacketSource open(String spec) {
        return open(spec, false);
    }

    /** Opens a spec; {@code lenient} makes capture readers stop cleanly at a corrupt tail. */
    public static PacketSource open(String spec, boolean lenient) {
        if (spec.startsWith(GENERATOR_PREFIX)) {
            return new SyntheticSource(generator(spec));
        }
        Path p = Paths.get(spec);
        if (Files.isDirectory(p)) {
            if (!TraceStore.isStore(p)) {
                throw new UserError(spec + ": directory is not a trace store (no " + TraceStore.MANIFEST + ")");
            }
            return new TraceStoreSource(p);
        }
        if (!Files.exists(p)) {
            throw new UserError(spec + ": no such file or directory (a trace is a .pcap/.pcapng file, a store "
                    + "directory, or gen:KIND?key=value&...; kinds: " + GeneratorKind.labels() + ")");
        }
        return CaptureFiles.open(p, lenient);
    }

    /** Parses a {@code gen:} spec into a validated config. */
    public static GeneratorConfig generator(String spec) {
        String body = spec.substring(GENERATOR_PREFIX.length());
        int q = body.indexOf('?');
        String kindName = q < 0 ? body : body.substring(0, q);
        GeneratorKind kind = GeneratorKind.byLabel(kindName);
        if (kind == null) {
            throw new UserError("unknown generator kind '" + kindName + "' in '" + spec + "'; valid: "
                    + GeneratorKind.labels());
        }
        Map<String, String> params = new LinkedHashMap<>();
        if (q >= 0 && q + 1 < body.length()) {
            for (String kv : body.substring(q + 1).split("&")) {
                if (kv.isEmpty()) {
                    continue;
                }
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new UserError("generator parameter '" + kv + "' in '" + spec + "' is not key=value");
                }
                String key = kv.substring(0, eq);
                if (params.put(key, URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8)) != null) {
                    throw new UserError("generator parameter '" + key + "' given twice in '" + spec + "'");
                }
            }
        }
        return GeneratorConfig.preset(kind).with(params).validated();
    }
}
