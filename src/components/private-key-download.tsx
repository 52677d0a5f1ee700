import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { downloadFile } from './data-table/download-file';

export type PrivateKeyDownloadProps = {
  fileName: string;
  privateKeyPem: string;
  hasDownloaded: boolean;
  onDownloaded: () => void;
  /** Who will hold the key, in the warning: "the party" or a person's name. */
  holder?: string;
};

/**
 * A key made in this browser, offered once as a PEM download with the plain warning: the console
 * keeps nothing, so the file is the only way to act as the party afterwards.
 */
export function PrivateKeyDownload({
  fileName,
  privateKeyPem,
  hasDownloaded,
  onDownloaded,
  holder,
}: PrivateKeyDownloadProps) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="Save the private key now">
        The console keeps nothing: once this allocation ends, the downloaded file is the only way to
        act as the party. Anyone who has it can act as the party; keep it safe
        {holder === undefined ? '' : ` and hand it to ${holder} over a channel you trust`}.
      </Alert>
      <Group>
        <Button
          variant="default"
          onClick={() => {
            downloadFile({ fileName, content: privateKeyPem, mimeType: 'application/x-pem-file' });
            onDownloaded();
          }}
        >
          Download private key ({fileName})
        </Button>
        {hasDownloaded && (
          <Text size="sm" role="status">
            Downloaded.
          </Text>
        )}
      </Group>
    </Stack>
  );
}
