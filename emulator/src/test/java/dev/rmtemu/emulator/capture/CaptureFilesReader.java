package dev.rmtemu.emulator.capture;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureReader;
import dev.rmtemu.traces.pcap.PcapngReader;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reads captures back for the tests: with the project's own reader, and with tshark where it is installed. */
public final class CaptureFilesReader {
    private CaptureFilesReader() {
    }

    /** One frame of a capture: interface (port), timestamp, original length, the bytes kept, the comment. */
    public record Frame(int port, long ns, int wire, byte[] bytes, String comment) {
    }

    /** A capture file: its interface names and frames, in file order. */
    public record Capture(List<String> interfaceNames, List<Frame> frames) {
    }

    /** Reads {@code file} (strictly: a damaged file fails) with the project's reader, every frame as bytes. */
    public static Capture read(Path file) {
        List<Frame> frames = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try (CaptureReader r = CaptureFiles.open(file, false)) {
            PcapngReader ng = (PcapngReader) r;
            ng.readComments(true);
            PacketRecord rec = PacketRecord.allocate();
            // the tap sees every frame, decoded or skipped, after its port, time and comment are read
            r.tap((b, off, cap, wire, linkType) -> {
                byte[] bytes = new byte[cap];
                b.getBytes(off, bytes);
                frames.add(new Frame(rec.ingressPort(), rec.timestampNs(), wire, bytes, ng.comment()));
            });
            while (r.next(rec)) {
                // the frames are collected by the tap
            }
            for (int i = 0; i < ng.interfaceCount(); i++) {
                names.add(ng.interfaceName(i));
            }
        }
        return new Capture(names, frames);
    }

    /** The tshark on the PATH, or null. */
    public static String tshark() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, "tshark");
            if (!d.isEmpty() && Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /** {@code tshark -r file -T fields -e F...}: one row per frame, the fields tab separated. */
    public static List<String[]> tsharkFields(String tshark, Path file, String... fields) throws IOException,
            InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(tshark, "-n", "-r", file.toString(), "-T", "fields",
                "-E", "separator=/t"));
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        Path out = file.resolveSibling(file.getFileName() + ".tshark.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "tshark did not finish");
        assertEquals(0, p.exitValue(), "tshark exit status on " + file);
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            rows.add(line.split("\t", -1));
        }
        Files.delete(out);
        return rows;
    }
}
