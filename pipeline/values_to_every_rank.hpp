// A finished tier's values run copied from rank 0 to every other rank of an MPI job.
//
// Why: a tier's initial scan reads the values runs of the tiers below it, and under MPI only
// rank 0 writes a values run (docs/distributed.md); the other ranks, each in its own folder,
// would find none. After each tier, rank 0 streams the file's bytes through Cluster::broadcast in
// chunks to the ranks that lack it, and each writes them under the same name in its own tier
// folder: the same bytes, so the same digest, checked before the file is put in place.
#pragma once
#include <string>

namespace zermelo {

class Cluster;

// Every rank calls it alike; `path` is this rank's place of the tier's values run, `digest_hex`
// its digest (rank 0's, recorded with every rank's "final"). A rank that holds the file with that
// digest already (a resumed job) takes nothing.
void copy_values_to_every_rank(Cluster& cluster, const std::string& path,
                               const std::string& digest_hex);

}  // namespace zermelo
