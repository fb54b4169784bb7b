package dev.rmtemu.traces.spec;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.text.ClosestName;
import dev.rmtemu.traces.gen.GeneratorConfig;
import dev.rmtemu.traces.gen.GeneratorKind;
import dev.rmtemu.traces.gen.SyntheticSource;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureReader;
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
    /** Longest part of a spec echoed in a message. */
    static final int MAX_SPEC_ECHO = 60;

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

    /**
     * Reads the whole trace {@code spec} names once, strictly, and returns its frame count: a
     * capture to its end, every header checked but no frame decoded (a record cut off mid-file is
     * refused), a trace store's every record
     * against the count and CRC32C of its manifest. A run calls it before its run directory is
     * touched, so damage that would otherwise show only at the end (or never, with a packet
     * limit) costs nothing of the previous run. A generator is not read (it cannot be damaged):
     * returns {@link PacketSource#UNKNOWN_COUNT}.
     */
    /**
     * {@link #verify} then {@link #open}: the trace {@code spec} names, checked to its end and
     * ready from its first packet. A trace store is read once for the check and rewound, so its
     * files are checked once, not twice.
     */
    public static PacketSource openVerified(String spec) {
        if (spec.startsWith(GENERATOR_PREFIX)) {
            return open(spec);
        }
        PacketSource s = open(spec, false);
        if (!(s instanceof TraceStoreSource store)) {
            s.close();
            verify(spec);
            return open(spec);
        }
        try {
            readToEnd(store);
            store.rewind();
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    private static long readToEnd(PacketSource s) {
        PacketRecord r = PacketRecord.allocate();
        long n = 0;
        while (s.next(r)) {
            n++;
        }
        return n;
    }

    public static long verify(String spec) {
        if (spec.startsWith(GENERATOR_PREFIX)) {
            return PacketSource.UNKNOWN_COUNT;
        }
        try (PacketSource s = open(spec, false)) {
            if (s instanceof CaptureReader capture) {
                // every check reading makes, without decoding the frames: a header walk
                return capture.verifyRest();
            }
            return readToEnd(s);
        }
    }

    /**
     * Parses a {@code gen:} spec into a validated config. Every refusal starts with the
     * spec (cut to {@value #MAX_SPEC_ECHO} characters) so the user sees which input it is.
     */
    public static GeneratorConfig generator(String spec) {
        String name = ClosestName.cut(spec, MAX_SPEC_ECHO);
        try {
            return parseGenerator(spec);
        } catch (UserError e) {
            throw new UserError(name + ": " + e.getMessage(), e);
        }
    }

    private static GeneratorConfig parseGenerator(String spec) {
        String body = spec.substring(GENERATOR_PREFIX.length());
        int q = body.indexOf('?');
        String kindName = q < 0 ? body : body.substring(0, q);
        GeneratorKind kind = GeneratorKind.byLabel(kindName);
        if (kind == null) {
            throw new UserError("unknown generator kind '" + ClosestName.cut(kindName, MAX_SPEC_ECHO) + "'; valid: "
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
                    throw new UserError("generator parameter '" + ClosestName.cut(kv, MAX_SPEC_ECHO) + "' is not key=value");
                }
                String key = kv.substring(0, eq);
                String value;
                try {
                    value = URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw new UserError("generator parameter '" + ClosestName.cut(key, MAX_SPEC_ECHO)
                            + "': bad %-escape in its value", e);
                }
                if (params.put(key, value) != null) {
                    throw new UserError("generator parameter '" + ClosestName.cut(key, MAX_SPEC_ECHO) + "' given twice");
                }
            }
        }
        return GeneratorConfig.preset(kind).with(params).validated();
    }
}
