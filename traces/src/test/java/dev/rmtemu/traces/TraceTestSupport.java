package dev.rmtemu.traces;

import dev.rmtemu.traces.gen.GeneratorConfig;
import dev.rmtemu.traces.gen.GeneratorKind;
import dev.rmtemu.traces.gen.SyntheticSource;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Helpers shared by the traces tests. */
public final class TraceTestSupport {
    private TraceTestSupport() {
    }

    /** All records of a source as arrays of their {@link PacketRecord#recordBytes()} bytes (metadata and frame). */
    public static List<byte[]> drain(PacketSource src) {
        List<byte[]> out = new ArrayList<>();
        UnsafeBuffer buf = new UnsafeBuffer(new byte[PacketRecord.stride(PacketRecord.MAX_FRAME_BYTES)]);
        PacketRecord r = new PacketRecord().wrap(buf, 0, PacketRecord.MAX_FRAME_BYTES);
        while (src.next(r)) {
            out.add(Arrays.copyOf(buf.byteArray(), r.recordBytes()));
        }
        return out;
    }

    /** A record over an array {@link #drain} returned. */
    public static PacketRecord view(byte[] bytes) {
        return new PacketRecord().wrap(new UnsafeBuffer(bytes), 0, bytes.length - PacketRecord.METADATA_BYTES);
    }

    public static SyntheticSource gen(GeneratorKind kind, String... keyValues) {
        GeneratorConfig c = GeneratorConfig.preset(kind);
        for (int i = 0; i < keyValues.length; i += 2) {
            c = c.with(keyValues[i], keyValues[i + 1]);
        }
        return new SyntheticSource(c);
    }

    /** The shared captures folder, or null when it is absent. */
    public static Path sharedTraces() {
        String p = System.getProperty("rmtemu.shared.traces");
        if (p == null) {
            return null;
        }
        Path d = Paths.get(p);
        return Files.isDirectory(d) ? d : null;
    }
}
