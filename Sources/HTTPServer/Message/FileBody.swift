#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor to send as a response body; owns the descriptor and closes it on deinit.
///
/// The server hands libmicrohttpd a `dup` of it, so a `FileBody` that is never sent (a test,
/// a HEAD request) still closes its descriptor.
public final class FileBody: Sendable {
    let fileDescriptor: Int32
    /// The number of bytes to send, from offset 0.
    public let sizeBytes: UInt64

    /// Takes ownership of `fileDescriptor` (a regular file opened for reading).
    public init(takingOwnershipOf fileDescriptor: Int32, sizeBytes: UInt64) {
        self.fileDescriptor = fileDescriptor
        self.sizeBytes = sizeBytes
    }

    deinit { close(fileDescriptor) }
}
