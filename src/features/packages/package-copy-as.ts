import { updateVettingRequest, type VettingChange } from '@/api/package-vetting';
import { darUploadRequest, type DarUploadOptions } from '@/api/dars';
import { cantonConsoleCall, scalaString, type CopyAsCommands } from '@/lib/text/copy-as';

/**
 * "Copy as…" for a DAR upload: curl of the request Upload sends (same path and query, the file
 * as the body), and Canton's `participant.dars.upload(path, …, vetAllPackages = true, …)`. The
 * console's upload takes no synchronizer: it vets on every synchronizer the participant is
 * connected to. So with a synchronizer chosen there is no equivalent, and no console command.
 */
export function darUploadCopyAs(options: DarUploadOptions, fileName: string): CopyAsCommands {
  const request = darUploadRequest(options, fileName);
  if (options.synchronizerId) return { request };
  return {
    request,
    cantonConsole: cantonConsoleCall('dars.upload', [
      ['path', scalaString(fileName)],
      // The console vets by default, as the API does.
      ['vetAllPackages', options.vetAllPackages ? undefined : 'false'],
    ]),
  };
}

/**
 * "Copy as…" for vetting or unvetting one package on one synchronizer: curl only. The console's
 * `dars.vetting.enable/disable` act on a whole DAR on every synchronizer, and
 * `topology.vetted_packages.propose_delta` takes topology types whose constructors differ between
 * Canton versions, so neither says the same thing as this request for sure.
 */
export function vettingCopyAs(change: VettingChange): CopyAsCommands {
  return { request: updateVettingRequest(change) };
}
