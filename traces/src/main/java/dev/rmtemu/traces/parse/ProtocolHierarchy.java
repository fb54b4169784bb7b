package dev.rmtemu.traces.parse;

import dev.rmtemu.model.parse.DefaultParseGraph;
import dev.rmtemu.model.parse.PacketParser;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseResult;
import dev.rmtemu.model.parse.ParserError;
import dev.rmtemu.traces.pcap.FrameTap;
import dev.rmtemu.traces.pcap.LinkType;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The protocol hierarchy of a capture as the switch's parser sees it: every
 * Ethernet frame runs through a parse graph (the default one unless given), and
 * each chain of extracted headers ({@code ethernet > vlan_outer > ipv4 > tcp}) is
 * counted with its frames and wire bytes, as tshark's {@code -z io,phs} does for
 * its dissectors; also frames per header and per parser error kind. Frames of
 * other link types are counted apart (the graph starts at Ethernet).
 */
public final class ProtocolHierarchy implements FrameTap {
    private final ParseGraph graph;
    private final PacketParser parser;
    private final ParseResult result;
    private final byte[] window;
    private final Node root;
    private final long[] perHeader;
    private final long[] perError = new long[ParserError.count()];
    private long frames;
    private long otherLinkFrames;
    private long accepted;

    /** The default parse graph with a window of {@code windowBytes}. */
    public ProtocolHierarchy(int windowBytes) {
        this(DefaultParseGraph.build(), windowBytes);
    }

    public ProtocolHierarchy(ParseGraph graph, int windowBytes) {
        this.graph = graph;
        this.parser = new PacketParser(graph, windowBytes);
        this.result = new ParseResult(graph);
        this.window = new byte[windowBytes];
        this.root = new Node(-1, graph.headers().size());
        this.perHeader = new long[graph.headers().size()];
    }

    @Override
    public void frame(DirectBuffer buffer, int offset, int capturedLength, int wireLength, int linkType) {
        frames++;
        if (linkType != LinkType.ETHERNET) {
            otherLinkFrames++;
            return;
        }
        int n = Math.min(capturedLength, window.length);
        buffer.getBytes(offset, window, 0, n);
        if (parser.parse(window, 0, capturedLength, wireLength, result)) {
            accepted++;
        } else {
            perError[result.error().ordinal()]++;
        }
        Node node = root;
        for (int i = 0; i < result.extractedCount(); i++) {
            int h = result.extractedHeader(i);
            node = node.child(h, perHeader.length);
            node.frames++;
            node.bytes += wireLength;
            perHeader[h]++;
        }
    }

    /** What was counted so far. */
    public Summary summary() {
        List<Row> rows = new ArrayList<>();
        walk(root, 0, rows);
        Map<String, Long> headers = new LinkedHashMap<>();
        for (int h = 0; h < perHeader.length; h++) {
            if (perHeader[h] > 0) {
                headers.put(graph.headers().get(h).name(), perHeader[h]);
            }
        }
        Map<String, Long> errors = new LinkedHashMap<>();
        for (int e = 0; e < perError.length; e++) {
            if (perError[e] > 0) {
                errors.put(ParserError.of(e).label(), perError[e]);
            }
        }
        return new Summary(graph.name(), window.length, frames, otherLinkFrames, accepted, rows, headers, errors);
    }

    /** Children by frames (most first), ties by header order: deterministic. */
    private void walk(Node node, int depth, List<Row> rows) {
        List<Node> kids = new ArrayList<>();
        for (Node c : node.children) {
            if (c != null) {
                kids.add(c);
            }
        }
        kids.sort((a, b) -> a.frames != b.frames ? Long.compare(b.frames, a.frames) : Integer.compare(a.header, b.header));
        for (Node c : kids) {
            rows.add(new Row(depth, graph.headers().get(c.header).name(), c.frames, c.bytes));
            walk(c, depth + 1, rows);
        }
    }

    /**
     * The hierarchy: frames seen, frames of other link types, frames the parser
     * accepted, one row per header chain in depth-first order, frames per header and
     * per parser error kind (non-zero only, in declaration order).
     */
    public record Summary(String parseGraph, int windowBytes, long frames, long otherLinkFrames, long accepted,
                          List<Row> hierarchy, Map<String, Long> headers, Map<String, Long> parserErrors) {
    }

    /** A header at a depth of the hierarchy: the frames and wire bytes whose chain reaches it. */
    public record Row(int depth, String header, long frames, long bytes) {
    }

    private static final class Node {
        final int header;
        final Node[] children;
        long frames;
        long bytes;

        Node(int header, int headers) {
            this.header = header;
            this.children = new Node[headers];
        }

        Node child(int h, int headers) {
            Node c = children[h];
            if (c == null) {
                c = new Node(h, headers);
                children[h] = c;
            }
            return c;
        }
    }
}
