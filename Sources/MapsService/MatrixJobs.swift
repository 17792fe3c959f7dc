import Foundation
public import MapsAPI
import Synchronization

/// Asynchronous matrices (TomTom Matrix v2 async): jobs are checked when submitted, computed one
/// at a time on a background queue, and kept in memory until `capacity` newer ones push them out.
/// A job belongs to the caller that submitted it (its API key, or one anonymous owner when keys
/// are off): to anyone else it does not exist, as with time-to-leave watches, so job ids do not leak.
public final class MatrixJobs: Sendable {
    struct Job: Sendable {
        var owner: String
        var status: MatrixJobStatus
        var result: MatrixResponse?
        var submitted: Date
    }

    private let jobs = Mutex<[String: Job]>([:])
    private let queue = DispatchQueue(label: "wayfinder.matrix-jobs", qos: .utility)
    public let capacity: Int

    public init(capacity: Int = 64) { self.capacity = capacity }

    /// Queues a query already checked against the asynchronous limit (`MapsService.checkMatrix`).
    public func submit(_ query: MatrixQuery, owner: String, service: MapsService) -> MatrixJobStatus {
        let limit = service.limits.maxAsyncMatrixCells
        let id = UUID().uuidString.lowercased()
        let status = MatrixJobStatus(jobId: id, state: .submitted, totalCount: query.cellCount)
        jobs.withLock { all in
            all[id] = Job(owner: owner, status: status, result: nil, submitted: Date())
            while all.count > capacity, let oldest = all.filter({ $0.value.status.state == .completed || $0.value.status.state == .failed })
                .min(by: { $0.value.submitted < $1.value.submitted })?.key {
                all[oldest] = nil
            }
        }
        queue.async { [self] in
            update(id) { $0.status.state = .inProgress }
            do throws(APIError) {
                let result = try service.matrix(query, maxCells: limit)
                update(id) { job in
                    job.result = result
                    job.status.state = .completed
                    job.status.statistics = result.statistics
                }
            } catch {
                update(id) { job in
                    job.status.state = .failed
                    job.status.error = error.body.detailedError
                }
            }
        }
        return status
    }

    private func update(_ id: String, _ change: (inout Job) -> Void) {
        jobs.withLock { all in
            guard var job = all[id] else { return }
            change(&job)
            all[id] = job
        }
    }

    /// The job's status when `owner` submitted it (nil: absent, or another caller's).
    public func status(_ id: String, owner: String) -> MatrixJobStatus? { job(id, owner: owner)?.status }

    /// The job's status and, once completed, its matrix, when `owner` submitted it.
    public func result(_ id: String, owner: String) -> (MatrixJobStatus, MatrixResponse?)? {
        job(id, owner: owner).map { ($0.status, $0.result) }
    }

    private func job(_ id: String, owner: String) -> Job? {
        jobs.withLock { all in all[id].flatMap { $0.owner == owner ? $0 : nil } }
    }
}
