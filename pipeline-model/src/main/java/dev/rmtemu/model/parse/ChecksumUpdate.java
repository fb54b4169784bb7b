package dev.rmtemu.model.parse;

import java.util.List;

/**
 * A deparser checksum update ({@code hdr.ipv4.hdr_checksum = checksum.update({...})}):
 * when {@code header} is valid, {@code destination} becomes the Internet checksum
 * of {@code fields} concatenated (the header's variable-length tail included when
 * {@code withVarbit}), computed as the packet leaves.
 */
public record ChecksumUpdate(String header, List<String> fields, boolean withVarbit, String destination) {
    public ChecksumUpdate {
        fields = List.copyOf(fields);
    }
}
