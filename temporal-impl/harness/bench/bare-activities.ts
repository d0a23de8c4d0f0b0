/** The bare workflow's only activity: it does nothing, so what remains is Temporal's round trip. */
export const bareActivities = {
  async noop(): Promise<null> {
    return null;
  },
};

export type BareActivities = typeof bareActivities;
